import { passAtK } from '../metrics/stats/pass-at-k.js';
import type { AggregateRangeScore } from '../model/summary.js';
import { aggregateRangeScore } from './aggregate-range-score.js';

const MEMO_LIMIT = 1 << 26;

/** What pass@k needs of one declaring task for one score-like output. */
export interface PassAtKTaskCounts {
  /** Measured trials: numeric task values incl. dead trials (null), excl. labels. */
  n: number;
  /** Measured trials whose value is non-null and ≥ 1.0. */
  c: number;
  /** Score records of the output's metric type in this task (any status). */
  opportunities: number;
}

/**
 * The `<key>.pass@k` rows for one score-like output (spec §7.6), tasks in summary order: k runs
 * from 1 to K = the largest `opportunities` of any declaring task; each row is the range aggregate of
 * the per-task estimates of tasks with `n ≥ k` (and n > 0), over `total` = the number of declaring
 * tasks — so a task unmeasured or short of k trials is in `nan_count`. Rows are kept when no task is
 * estimable at k.
 *
 * @example
 * passAtKScores('m.reward', [{ n: 2, c: 1, opportunities: 2 }]).map((r) => r.mean); // [0.5, 1]
 */
export function passAtKScores(key: string, tasks: readonly PassAtKTaskCounts[]): AggregateRangeScore[] {
  let maxK = 0;
  for (const t of tasks) if (t.opportunities > maxK) maxK = t.opportunities;
  const rows: AggregateRangeScore[] = [];
  // tasks share few (n, c) pairs (n is usually the trials per task): compute each estimate once per k
  const memo = new Map<number, number>();
  for (let k = 1; k <= maxK; k++) {
    const estimates: number[] = [];
    memo.clear();
    for (const t of tasks) {
      const { n, c } = t;
      if (n > 0 && n >= k) {
        if (n >= MEMO_LIMIT || c < 0 || c >= MEMO_LIMIT) {
          estimates.push(passAtK(n, c, k));
          continue;
        }
        const key = n * MEMO_LIMIT + c;
        let estimate = memo.get(key);
        if (estimate === undefined) memo.set(key, (estimate = passAtK(n, c, k)));
        estimates.push(estimate);
      }
    }
    rows.push(aggregateRangeScore(`${key}.pass@${k}`, estimates, tasks.length));
  }
  return rows;
}
