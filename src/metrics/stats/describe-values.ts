import { PERCENTILE_KEYS, type Percentiles } from '../../model/summary.js';
import { pyFloatSum } from '../../pycompat/py-float-sum.js';

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

/**
 * Sort finite floats ascending into a new `Float64Array`, ordering equal values exactly as Python's
 * stable `sorted()` does. The only equal-but-distinguishable floats are `-0.0` and `0.0`: a typed-array
 * sort puts every `-0` first, Python keeps them in input order, so the block of zeros is rewritten
 * with the signs in input order. Non-finite inputs are the caller's business (filter them first).
 *
 * @example
 * sortFloatsLikePython([0, -0, -1]); // Float64Array [-1, 0, -0]
 */
export function sortFloatsLikePython(values: ArrayLike<number>): Float64Array {
  const sorted = new Float64Array(values as ArrayLike<number>);
  sorted.sort();
  let negativeZero = false;
  for (let i = 0; i < values.length; i++) {
    if (Object.is(values[i], -0)) {
      negativeZero = true;
      break;
    }
  }
  if (!negativeZero) return sorted;
  let first = 0;
  while (first < sorted.length && (sorted[first] as number) < 0) first++;
  let z = first;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v === 0) sorted[z++] = v;
  }
  return sorted;
}

const PERCENTS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;

/**
 * p10, p20, …, p100 of ascending `sorted` values with the SDK's rank rule: `pos = (p/100)·(n+1) − 1`;
 * `pos ≤ 0` → the first value, `pos ≥ n−1` → the last, else linear interpolation between
 * `sorted[⌊pos⌋]` and the next. Returns null for an empty input (the SDK never asks then).
 *
 * @example
 * computePercentiles([0, 1]); // { p10: 0, p20: 0, p30: 0, p40: 0.2000000000000002, p50: 0.5, p60: 0.7999999999999998, p70: 1, ... }
 */
export function computePercentiles(sorted: ArrayLike<number>): Percentiles | null {
  const n = sorted.length;
  if (n === 0) return null;
  const out = {} as Percentiles;
  for (let j = 0; j < PERCENTS.length; j++) {
    const pos = ((PERCENTS[j] as number) / 100.0) * (n + 1) - 1;
    let value: number;
    if (pos <= 0) {
      value = sorted[0] as number;
    } else if (pos >= n - 1) {
      value = sorted[n - 1] as number;
    } else {
      const lower = Math.trunc(pos);
      const frac = pos - lower;
      const a = sorted[lower] as number;
      value = a + frac * ((sorted[lower + 1] as number) - a);
    }
    out[PERCENTILE_KEYS[j] as keyof Percentiles] = value;
  }
  return out;
}
