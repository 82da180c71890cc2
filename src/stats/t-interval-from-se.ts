import { studentTQuantile } from '../pycompat/student-t-quantile.js';
import type { IntervalMethod, StatsInterval } from './stats-interval.js';

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
