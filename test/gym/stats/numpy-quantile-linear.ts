/**
 * numpy's default ("linear", Hyndman–Fan type 7) quantile of ascending-sorted values, with numpy's
 * `_lerp`: `h = (n-1)·q`, `i = ⌊h⌋`, `g = h - i`, then `a + (b-a)·g` when `g < 0.5` and
 * `b - (b-a)·(1-g)` otherwise (a = x[i], b = x[min(i+1, n-1)]). NaN for an empty array.
 *
 * @example
 * numpyQuantileLinear(Float64Array.of(0, 1), 0.25); // 0.25
 */
export function numpyQuantileLinear(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  // numpy: n*q + (alpha + q*(1 - alpha - beta)) - 1 with alpha = beta = 1
  const h = n * q + (1 + q * (1 - 1 - 1)) - 1;
  const lo = Math.min(Math.max(Math.floor(h), 0), n - 1);
  const hi = Math.min(lo + 1, n - 1);
  const g = h - Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  const diff = b - a;
  return g >= 0.5 ? b - diff * (1 - g) : a + diff * g;
}
