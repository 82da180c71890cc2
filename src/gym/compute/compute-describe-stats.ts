import { pandasMeanOfCount, pandasStdAbout, rangeMax, rangeMin } from '../stats/pandas-nanops.js';
import { pandasMedian } from '../stats/pandas-median.js';
import type { PyJsonObject } from '../../pycompat/py-json.js';

/** Per column statistics of `describe_dataframe` (NaN = omitted), reused from call to call. */
export type DescribeStats = Record<'mean' | 'max' | 'min' | 'median' | 'std', Float64Array>;

/** Room for the {@link DescribeStats} of `m` columns. */
export function describeStats(m: number): DescribeStats {
  const a = (): Float64Array => new Float64Array(m);
  return { mean: a(), max: a(), min: a(), median: a(), std: a() };
}

/** The number of non-NaN values of `v[start, end)`. */
function countNonNaN(v: Float64Array, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (v[i] === v[i]) count++;
  return count;
}

function hasNoNaN(v: Float64Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (v[i] !== v[i]) return false;
  return true;
}

/**
 * Gym's `describe_dataframe` statistics for the rows `[start, end)` of each column, written into
 * `out` (arrays at least `columns.length` long): mean, max, min, median and std with pandas'
 * skip-NaN rules; if every std is NaN, std becomes 0.0 for each column without a missing value in
 * the rows.
 *
 * @example
 * const out = describeStats(1);
 * computeDescribeStats([Float64Array.of(1, 0)], 0, 2, out); // out.mean[0] === 0.5
 */
export function computeDescribeStats(
  columns: readonly Float64Array[],
  start: number,
  end: number,
  out: DescribeStats,
): void {
  const m = columns.length;
  const std = out.std;
  const n = end - start;
  let allStdNaN = true;
  let anyComplete = false;
  for (let c = 0; c < m; c++) {
    const v = columns[c] as Float64Array;
    const count = describeColumn(v, start, end, c, out);
    if (count === n) anyComplete = true;
    if (std[c] === std[c]) allStdNaN = false;
  }
  if (allStdNaN && anyComplete) {
    for (let c = 0; c < m; c++) if (hasNoNaN(columns[c] as Float64Array, start, end)) std[c] = 0;
  }
}

/** Column `c` over the rows `[start, end)`; returns the count of non-NaN values. */
function describeColumn(v: Float64Array, start: number, end: number, c: number, out: DescribeStats): number {
  const count = countNonNaN(v, start, end);
  // the mean is also pandasStd's first pass: computed once
  const avg = pandasMeanOfCount(v, start, end, count);
  out.mean[c] = avg;
  out.max[c] = count > 0 ? rangeMax(v, start, end) : NaN;
  out.min[c] = count > 0 ? rangeMin(v, start, end) : NaN;
  out.median[c] = pandasMedian(v, start, end);
  out.std[c] = count > 1 ? pandasStdAbout(v, start, end - start, avg, count - 1) : NaN;
  return count;
}

/**
 * Gym's `describe_dataframe` for the rows `[start, end)` of `columns`, as it ends up in the JSON:
 * every `mean/*`, then `max/*`, `min/*`, `median/*`, `std/*` over the columns in order; if every std
 * is NaN, std becomes 0.0 for each column without a missing value in the rows; NaN statistics are
 * omitted. Max and min are ints only when `intMaxMin` (all frame columns are int64), floats otherwise.
 * `stats` is scratch room for the statistics (arrays at least `columns.length` long).
 *
 * @example
 * describeColumns(describeKeys(['reward']), [Float64Array.of(1, 0)], 0, 2, false);
 * // { 'mean/reward': 0.5, 'max/reward': 1, 'min/reward': 0, 'median/reward': 0.5, 'std/reward': 0.7071… }
 */
export function describeColumns(
  keys: DescribeKeys,
  columns: readonly Float64Array[],
  start: number,
  end: number,
  intMaxMin: boolean,
  stats = describeStats(columns.length),
): PyJsonObject {
  const m = columns.length;
  computeDescribeStats(columns, start, end, stats);
  const out: PyJsonObject = {};
  const put = (names: string[], values: Float64Array, asInt: boolean): void => {
    for (let c = 0; c < m; c++) {
      const x = values[c] as number;
      if (x !== x) continue;
      out[names[c] as string] = asInt ? BigInt(x) : x;
    }
  };
  put(keys.mean, stats.mean, false);
  put(keys.max, stats.max, intMaxMin);
  put(keys.min, stats.min, intMaxMin);
  put(keys.median, stats.median, false);
  put(keys.std, stats.std, false);
  return out;
}

/** Precomputed `stat/field` key names of a frame's columns (see {@link describeColumns}). */
export interface DescribeKeys {
  mean: string[];
  max: string[];
  min: string[];
  median: string[];
  std: string[];
}

/**
 * The `mean/`, `max/`, `min/`, `median/`, `std/` key names of the columns `names`.
 *
 * @example
 * describeKeys(['reward']).mean; // ['mean/reward']
 */
export function describeKeys(names: readonly string[]): DescribeKeys {
  return {
    mean: names.map((n) => `mean/${n}`),
    max: names.map((n) => `max/${n}`),
    min: names.map((n) => `min/${n}`),
    median: names.map((n) => `median/${n}`),
    std: names.map((n) => `std/${n}`),
  };
}
