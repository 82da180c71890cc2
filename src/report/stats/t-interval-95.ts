import { studentTQuantile } from '../../pycompat/student-t-quantile.js';

/**
 * Two-sided 95% Student-t interval for a mean from its summary statistics:
 * `mean ± t(0.975, n−1) · s/√n`. Null when `n < 2` or an input is missing or non-finite.
 *
 * @example
 * tInterval95(0.5, 0.5, 4); // { lo: -0.2956…, hi: 1.2956… }
 */
export function tInterval95(
  mean: number | null,
  sampleStdDev: number | null,
  n: number | null,
): { lo: number; hi: number } | null {
  if (mean === null || sampleStdDev === null || n === null) return null;
  if (!Number.isFinite(mean) || !Number.isFinite(sampleStdDev) || !(n >= 2)) return null;
  const half = studentTQuantile(0.975, n - 1) * (sampleStdDev / Math.sqrt(n));
  return { lo: mean - half, hi: mean + half };
}
