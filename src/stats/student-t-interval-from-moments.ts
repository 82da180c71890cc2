import { studentTQuantile } from '../gym/stats/student-t-quantile.js';
import type { StatsInterval } from './stats-interval.js';

/**
 * `studentTInterval` from a mean, a sample standard deviation and a count (as in `summary.json`).
 * Null when `n < 2` or an input is not finite.
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
  const se = sampleStdDev / Math.sqrt(n);
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * se;
  return {
    method: 'student_t',
    estimate: mean,
    low: mean - half,
    high: half + mean,
    confidence,
    se,
    df: n - 1,
    n,
  };
}
