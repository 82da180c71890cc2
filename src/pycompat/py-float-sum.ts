/**
 * Python's built-in `sum()` over floats, bit for bit as CPython ≥ 3.12 computes it: the start value
 * is the int `0` (so the first term is `0 + x₀`, which turns `-0.0` into `0.0`), then Neumaier's
 * compensated summation in input order, and the compensation is added at the end only when it is
 * non-zero and finite. CPython ≤ 3.11 summed naively; see docs/semantics.md for why 3.12+ is matched.
 *
 * @example
 * pyFloatSum([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]); // 1 (naive addition gives 0.9999999999999999)
 * pyFloatSum([1e16, 1, -1e16]); // 1
 * pyFloatSum([]); // 0
 */
export function pyFloatSum(values: ArrayLike<number>, start = 0, end: number = values.length): number {
  if (end <= start) return 0;
  // `0 + x0`: adding a float to the int start value; 0.0 + -0.0 is +0.0.
  let hi = 0 + (values[start] as number);
  let lo = 0;
  for (let i = start + 1; i < end; i++) {
    const x = values[i] as number;
    const t = hi + x;
    if (Math.abs(hi) >= Math.abs(x)) {
      lo += hi - t + x;
    } else {
      lo += x - t + hi;
    }
    hi = t;
  }
  if (lo !== 0 && Number.isFinite(lo)) return hi + lo;
  return hi;
}
