/** A Python number: `bigint` stands for a Python `int`, `number` for a Python `float`. */
export type PyNumber = number | bigint;

/**
 * CPython ≥ 3.12 `sum()` over ints (`bigint`) and floats (`number`), bit for bit: exact integer
 * accumulation while the items are ints; from the first float on, Neumaier-compensated float
 * summation, where later ints are added plainly (as CPython's fast path does) and the compensation is
 * added at the end when non-zero and finite. Returns a `bigint` when every item is an int.
 *
 * @example
 * pySum([0.1, 0.2, 0.3]); // 0.6 (a naive sum gives 0.6000000000000001)
 * pySum([1n, 2n]); // 3n
 */
export function pySum(values: Iterable<PyNumber>): PyNumber {
  let intSum = 0n;
  let isFloat = false;
  let f = 0;
  let c = 0;
  for (const x of values) {
    if (!isFloat) {
      if (typeof x === 'bigint') {
        intSum += x;
        continue;
      }
      isFloat = true;
      f = Number(intSum) + x;
      c = 0;
      continue;
    }
    if (typeof x === 'bigint') {
      f += Number(x);
      continue;
    }
    const t = f + x;
    if (Math.abs(f) >= Math.abs(x)) c += f - t + x;
    else c += x - t + f;
    f = t;
  }
  if (!isFloat) return intSum;
  if (c !== 0 && Number.isFinite(c)) return f + c;
  return f;
}
