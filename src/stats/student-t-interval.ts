import type { StatsInterval } from './stats-interval.js';
import { studentTIntervalFromMoments } from './student-t-interval-from-moments.js';

/**
 * Student-t interval for a mean from independent values: `mean ± t(1−α/2, n−1) · s/√n`, with `s` the
 * sample standard deviation. Non-finite values are ignored; null with fewer than 2 values.
 *
 * @example
 * studentTInterval([1, 2, 3, 4]); // estimate 2.5, low 0.4457…, high 4.5542… (t(0.975, 3) = 3.1824…)
 */
export function studentTInterval(values: readonly number[], confidence = 0.95): StatsInterval | null {
  let n = 0;
  let sum = 0;
  for (const v of values) {
    if (Number.isFinite(v)) {
      n += 1;
      sum += v;
    }
  }
  if (n < 2) return null;
  const mean = sum / n;
  let ss = 0;
  for (const v of values) if (Number.isFinite(v)) ss += (v - mean) ** 2;
  return studentTIntervalFromMoments(mean, Math.sqrt(ss / (n - 1)), n, confidence);
}
