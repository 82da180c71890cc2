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
  // tasks share few (n, c) pairs (n is usually the trials per task): number the distinct pairs once,
  // then compute each pair's estimate once per k
  const pairIndex = new Map<number, number>();
  const pairs: PassAtKTaskCounts[] = [];
  const taskPair = new Int32Array(tasks.length);
  tasks.forEach((t, i) => {
    const { n, c } = t;
    if (
      !(n > 0) ||
      n >= MEMO_LIMIT ||
      !(c >= 0) ||
      c >= MEMO_LIMIT ||
      !Number.isInteger(n) ||
      !Number.isInteger(c)
    ) {
      taskPair[i] = pairs.length; // its own entry
      pairs.push(t);
      return;
    }
    const id = n * MEMO_LIMIT + c;
    let index = pairIndex.get(id);
    if (index === undefined) {
      pairIndex.set(id, (index = pairs.length));
      pairs.push(t);
    }
    taskPair[i] = index;
  });
  const estimate = new Float64Array(pairs.length);
  for (let k = 1; k <= maxK; k++) {
    for (let p = 0; p < pairs.length; p++) {
      const { n, c } = pairs[p] as PassAtKTaskCounts;
      estimate[p] = n > 0 && n >= k ? passAtK(n, c, k) : NaN;
    }
    const estimates: number[] = [];
    for (let i = 0; i < tasks.length; i++) {
      const { n } = tasks[i] as PassAtKTaskCounts;
      if (n > 0 && n >= k) estimates.push(estimate[taskPair[i] as number] as number);
    }
    rows.push(aggregateRangeScore(`${key}.pass@${k}`, estimates, tasks.length));
  }
  return rows;
}
