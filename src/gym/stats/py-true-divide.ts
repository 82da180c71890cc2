import type { PyNumber } from '../../pycompat/py-sum.js';

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Correctly rounded `a / b` for non-negative bigints (Python's `int / int`). */
function divideBig(a: bigint, b: bigint): number {
  const max = 2n ** 53n;
  if (a <= max && b <= max) return Number(a) / Number(b);
  const shift = Math.max(0, 64 + bitLength(b) - bitLength(a));
  const scaled = a << BigInt(shift);
  let q = scaled / b;
  if (q * b !== scaled) q |= 1n; // sticky bit so that Number(q) rounds correctly
  return Number(q) / 2 ** shift;
}

/**
 * Python's true division `a / b` for ints (`bigint`, correctly rounded like CPython) and floats.
 *
 * @example
 * pyTrueDivide(1n, 3n); // 0.3333333333333333
 */
export function pyTrueDivide(a: PyNumber, b: PyNumber): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) throw new RangeError('division by zero');
    const neg = a < 0n !== b < 0n;
    const r = divideBig(a < 0n ? -a : a, b < 0n ? -b : b);
    return neg ? -r : r;
  }
  return Number(a) / Number(b);
}
