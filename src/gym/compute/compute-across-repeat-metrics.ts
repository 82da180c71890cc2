import type { PyJsonObject } from '../../pycompat/py-json.js';
import { pairwiseSum } from '../stats/pairwise-sum.js';
import { pandasMedian } from '../stats/pandas-median.js';
import { pandasStd } from '../stats/pandas-std.js';
import { tConfidenceInterval } from '../stats/t-confidence-interval.js';
import type { GymWarnings } from './gym-warnings.js';

/**
 * The across-repeat summary merged into `agent_metrics`: each repeat entry's `mean/f` is one
 * observation (only repeats that have it); fields in order of first appearance; per field
 * `mean_across_repeats/mean/f`, `median_across_repeats/mean/f`, `se_across_repeats/mean/f`
 * (sample std / √n, 0.0 for one repeat) and, for n > 1, the 95% t interval.
 *
 * @example
 * computeAcrossRepeatMetrics([{ 'mean/reward': 1 }, { 'mean/reward': 0.5 }], warnings);
 * // { 'mean_across_repeats/mean/reward': 0.75, …, 'se_across_repeats/mean/reward': 0.25, … }
 */
export function computeAcrossRepeatMetrics(
  entries: readonly PyJsonObject[],
  warnings: GymWarnings,
): PyJsonObject {
  const fields: string[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    for (const k of Object.keys(e)) {
      if (k.startsWith('mean/') && !seen.has(k)) {
        seen.add(k);
        fields.push(k);
      }
    }
  }
  const out: PyJsonObject = {};
  for (const f of fields) {
    const xs: number[] = [];
    for (const e of entries) {
      const v = e[f];
      if (typeof v === 'number' && v === v) xs.push(v);
    }
    const n = xs.length;
    if (n === 0) continue;
    const x = Float64Array.from(xs);
    const mean = (0 + pairwiseSum(x)) / n;
    const std = n > 1 ? pandasStd(x) : 0.0;
    const se = std / Math.sqrt(n);
    out[`mean_across_repeats/${f}`] = mean;
    out[`median_across_repeats/${f}`] = pandasMedian(x);
    out[`se_across_repeats/${f}`] = se;
    const ci = tConfidenceInterval(mean, se, n);
    if (ci !== null) {
      if (ci.zeroSe) warnings.zeroStandardError(n);
      out[`ci_low_95_across_repeats/${f}`] = ci.low;
      out[`ci_high_95_across_repeats/${f}`] = ci.high;
    }
  }
  return out;
}
