import type { StatsInterval } from './stats-interval.js';
import { tIntervalFromSe } from './t-interval-from-se.js';

/**
 * The Student-t interval `mean ± t(1−α/2, n−1) · s/√n` from a mean, a sample standard deviation `s`
 * and a count (as in `summary.json`). Null when `n < 2` or an input is not finite.
 *
 * @example
 * studentTIntervalFromMoments(0.5, 0.5, 4); // low -0.2956…, high 1.2956…
 */
export function studentTIntervalFromMoments(
  mean: number,
  sampleStdDev: number,
  n: number,
  confidence = 0.95,
): StatsInterval | null {
  if (!(n >= 2) || !Number.isFinite(mean) || !Number.isFinite(sampleStdDev)) return null;
  return tIntervalFromSe('student_t', mean, sampleStdDev / Math.sqrt(n), n - 1, n, confidence);
}
