import { pandasMeanOfCount } from '../stats/pandas-mean.js';
import { pandasMedian } from '../stats/pandas-median.js';
import { pandasStdAbout } from '../stats/pandas-std.js';
import { rangeMax, rangeMin } from '../stats/range-extremes.js';

/** Per column statistics of `describe_dataframe` (NaN = omitted), reused from call to call. */
export interface DescribeStats {
  mean: Float64Array;
  max: Float64Array;
  min: Float64Array;
  median: Float64Array;
  std: Float64Array;
}

/**
 * The number of non-NaN values of `v[start, end)`. (The loops of the statistics are functions of their
 * own: see `range-extremes.ts`.)
 */
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
 * const out = { mean: new Float64Array(1), max: new Float64Array(1), min: new Float64Array(1), median: new Float64Array(1), std: new Float64Array(1) };
 * computeDescribeStats([Float64Array.of(1, 0)], 0, 2, out); // out.mean[0] === 0.5
 */
export function computeDescribeStats(
  columns: readonly Float64Array[],
  start: number,
  end: number,
  out: DescribeStats,
): void {
  const m = columns.length;
  const { mean, max, min, median, std } = out;
  let allStdNaN = true;
  let anyComplete = false;
  for (let c = 0; c < m; c++) {
    const v = columns[c] as Float64Array;
    const count = countNonNaN(v, start, end);
    const n = end - start;
    if (count === n) anyComplete = true;
    if (count === 0) {
      mean[c] = NaN;
      max[c] = NaN;
      min[c] = NaN;
      median[c] = NaN;
      std[c] = NaN;
      continue;
    }
    // the mean is also pandasStd's first pass: computed once
    const avg = pandasMeanOfCount(v, start, end, count);
    mean[c] = avg;
    max[c] = rangeMax(v, start, end);
    min[c] = rangeMin(v, start, end);
    median[c] = pandasMedian(v, start, end);
    std[c] = count > 1 ? pandasStdAbout(v, start, n, avg, count - 1) : NaN;
    if (std[c] === std[c]) allStdNaN = false;
  }
  if (allStdNaN && anyComplete) {
    for (let c = 0; c < m; c++) if (hasNoNaN(columns[c] as Float64Array, start, end)) std[c] = 0;
  }
}
