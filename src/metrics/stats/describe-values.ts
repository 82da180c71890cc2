import type { Percentiles } from '../../model/summary.js';
import { computePercentiles } from './compute-percentiles.js';
import { pyFloatSum } from '../../pycompat/py-float-sum.js';
import { sortFloatsLikePython } from './sort-floats-like-python.js';

/** The statistics of one aggregate row (spec §7.2); every statistic is null when `count` is 0. */
export interface ValueDescription {
  /** Number of finite values (NaN/±Infinity are dropped). */
  count: number;
  sum: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
  /** Population variance Σ(v−mean)²/count. */
  variance: number | null;
  std_dev: number | null;
  /** Σ(v−mean)²/(count−1); null when count < 2. */
  sample_variance: number | null;
  sample_std_dev: number | null;
  percentiles: Percentiles | null;
  /** Always `percentiles.p50`. */
  median: number | null;
}

/**
 * Describe a list of values exactly as the SDK's `_aggregate_range_score` does: keep the finite values
 * (in input order), `sum` with Python's `sum()` (Neumaier, see `pyFloatSum`), `mean = sum/count`,
 * `min`/`max` first-wins like Python's `min()`/`max()`, population and sample variance from one
 * Python-summed Σ(v−mean)², and p10..p100 over a Python-stable sorted copy.
 *
 * @example
 * describeValues([1, 0]).sample_variance; // 0.5
 * describeValues([NaN]).count; // 0 (and every statistic null)
 */
export function describeValues(values: ArrayLike<number>): ValueDescription {
  let finite: ArrayLike<number> = values;
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i] as number)) {
      const kept: number[] = [];
      for (let j = 0; j < values.length; j++) {
        const v = values[j] as number;
        if (Number.isFinite(v)) kept.push(v);
      }
      finite = kept;
      break;
    }
  }
  const count = finite.length;
  if (count === 0) {
    return {
      count: 0,
      sum: null,
      mean: null,
      min: null,
      max: null,
      variance: null,
      std_dev: null,
      sample_variance: null,
      sample_std_dev: null,
      percentiles: null,
      median: null,
    };
  }
  const sum = pyFloatSum(finite);
  const mean = sum / count;
  const squares = new Float64Array(count);
  let min = finite[0] as number;
  let max = min;
  for (let i = 0; i < count; i++) {
    const v = finite[i] as number;
    const d = v - mean;
    squares[i] = d * d;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const sumSqDev = pyFloatSum(squares);
  const variance = sumSqDev / count;
  const sampleVariance = count > 1 ? sumSqDev / (count - 1) : null;
  const percentiles = computePercentiles(sortFloatsLikePython(finite));
  return {
    count,
    sum,
    mean,
    min,
    max,
    variance,
    std_dev: Math.sqrt(variance),
    sample_variance: sampleVariance,
    sample_std_dev: sampleVariance === null ? null : Math.sqrt(sampleVariance),
    percentiles,
    median: percentiles === null ? null : percentiles.p50,
  };
}
