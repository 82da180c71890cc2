import { studentTQuantile } from '../pycompat/student-t-quantile.js';
import type { IntervalMethod, StatsInterval } from './stats-interval.js';

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

/**
 * The interval `estimate ± t(1−α/2, df) · se`, labelled with its method: the last step of every
 * t-based interval here.
 *
 * @example
 * tIntervalFromSe('student_t', 2.5, Math.sqrt(5 / 12), 3, 4, 0.95); // low 0.4457…, high 4.5542…
 */
export function tIntervalFromSe(
  method: IntervalMethod,
  estimate: number,
  se: number,
  df: number,
  n: number,
  confidence: number,
): StatsInterval {
  const half = studentTQuantile(1 - (1 - confidence) / 2, df) * se;
  return { method, estimate, low: estimate - half, high: estimate + half, confidence, se, df, n };
}
