import { studentTQuantile } from '../../pycompat/student-t-quantile.js';

/** A 95% Student-t interval; `zeroSe` is set when it collapsed because the standard error is exactly 0. */
export interface TConfidenceInterval {
  low: number;
  high: number;
  zeroSe: boolean;
}

/**
 * Gym's 95% confidence interval for a mean `m` with standard error `se` over `n` values: none when
 * `n <= 1`; `(m, m)` with `zeroSe` when `se === 0` (scipy would return NaN); otherwise
 * `m ∓ se·t*` with `t* = t_{0.975}(n-1)`. Bounds are never clipped.
 *
 * @example
 * tConfidenceInterval(0.5, 0.5, 2); // { low: -5.853102368216…, high: 6.853102368216…, zeroSe: false }
 */
export function tConfidenceInterval(m: number, se: number, n: number): TConfidenceInterval | null {
  if (n <= 1) return null;
  if (se === 0) return { low: m, high: m, zeroSe: true };
  const t = studentTQuantile(0.975, n - 1);
  const half = t * se;
  return { low: -half + m, high: half + m, zeroSe: false };
}
