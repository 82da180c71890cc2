import { passAtK } from '../metrics/stats/pass-at-k.js';
import type { StatsInterval } from './stats-interval.js';
import { studentTInterval } from './student-t-interval.js';

/** One task's trials for {@link passAtKInterval}: `n` measured trials, `c` of them passing. */
export interface PassCounts {
  n: number;
  c: number;
}

/**
 * pass@k over tasks with its interval: each task with `n ≥ k` contributes the unbiased estimate
 * `1 − C(n−c, k)/C(n, k)` (Chen et al. 2021, as the summary computes it); the estimate is their mean
 * and the interval a Student-t interval over those per-task values (tasks are the independent units,
 * so no clustering is left to account for). Null with fewer than 2 such tasks.
 *
 * @example
 * passAtKInterval([{ n: 4, c: 2 }, { n: 4, c: 0 }, { n: 4, c: 4 }], 2); // estimate (5/6 + 0 + 1)/3
 */
export function passAtKInterval(
  tasks: readonly PassCounts[],
  k: number,
  confidence = 0.95,
): StatsInterval | null {
  const values = tasks.filter((t) => t.n >= k).map((t) => passAtK(t.n, t.c, k));
  const interval = studentTInterval(values, confidence);
  return interval === null ? null : { ...interval, method: 'pass_at_k_t' };
}
