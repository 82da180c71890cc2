import { pandasMeanOfCount } from '../stats/pandas-mean.js';
import { pandasMedian } from '../stats/pandas-median.js';
import { pandasStdAbout } from '../stats/pandas-std.js';
import { rangeMax, rangeMin } from '../stats/range-extremes.js';

/** Per column statistics of `describe_dataframe` (NaN = omitted) for `m` columns, reused from call to call. */
export class DescribeStats {
  readonly mean: Float64Array;
  readonly max: Float64Array;
  readonly min: Float64Array;
  readonly median: Float64Array;
  readonly std: Float64Array;

  constructor(m: number) {
    this.mean = new Float64Array(m);
    this.max = new Float64Array(m);
    this.min = new Float64Array(m);
    this.median = new Float64Array(m);
    this.std = new Float64Array(m);
  }
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
 * const out = new DescribeStats(1);
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
