import { describeValues } from '../metrics/stats/describe-values.js';
import type { AggregateRangeScore } from '../model/summary.js';

/**
 * One `score_type: "range"` aggregate row (spec §7.2): `describeValues` over the values, with
 * `nan_count = max(total − count, 0)` and `histogram` null. With no finite value every statistic is
 * null and `count` is 0.
 *
 * @example
 * aggregateRangeScore('m.reward', [1, 0], 2).mean; // 0.5
 * aggregateRangeScore('m.reward', [], 3).nan_count; // 3
 */
export function aggregateRangeScore(
  name: string,
  values: ArrayLike<number>,
  total: number,
): AggregateRangeScore {
  const d = describeValues(values);
  return {
    name,
    count: d.count,
    nan_count: Math.max(total - d.count, 0),
    sum: d.sum,
    mean: d.mean,
    min: d.min,
    max: d.max,
    median: d.median,
    std_dev: d.std_dev,
    variance: d.variance,
    sample_std_dev: d.sample_std_dev,
    sample_variance: d.sample_variance,
    score_type: 'range',
    percentiles: d.percentiles,
    histogram: null,
  };
}
