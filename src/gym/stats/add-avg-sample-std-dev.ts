import { pySum, type PyNumber } from '../../pycompat/py-sum.js';
import { pyTrueDivide } from './py-true-divide.js';

/**
 * Gym's `add_avg_sample_std_dev`: for k ≥ 2 and each score name, `pass@1[avg-of-k]/name/avg_sample_std_dev`
 * = the mean over tasks (with at least 2 scores among their first k) of the sample std of those scores.
 * Adds the keys to `metrics` in place.
 *
 * @example
 * const r = computePassMajorityMetrics(tasks);
 * addAvgSampleStdDev(r.metrics, r.scores, r.scoreNames, r.maxK);
 */
export function addAvgSampleStdDev(
  metrics: Record<string, unknown>,
  scores: readonly (readonly ReadonlyMap<string, PyNumber>[])[],
  scoreNames: readonly string[],
  maxK: number,
): void {
  if (maxK <= 1) return;
  for (let k = 2; k <= maxK; k++) {
    for (const name of scoreNames) {
      const stds: number[] = [];
      for (const ts of scores) {
        const vals: PyNumber[] = [];
        for (const s of ts.slice(0, k)) if (s.has(name)) vals.push(s.get(name) as PyNumber);
        if (vals.length >= 2) {
          const mean = pyTrueDivide(pySum(vals), BigInt(vals.length));
          const sq = vals.map((v) => {
            const d = Number(v) - mean;
            return d * d;
          });
          stds.push(Math.sqrt((pySum(sq) as number) / (vals.length - 1)));
        }
      }
      if (stds.length > 0) {
        metrics[`pass@1[avg-of-${k}]/${name}/avg_sample_std_dev`] = (pySum(stds) as number) / stds.length;
      }
    }
  }
}
