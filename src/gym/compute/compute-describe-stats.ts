import { pandasMeanOfCount } from '../stats/pandas-mean.js';
import { pandasMedian } from '../stats/pandas-median.js';
import { pandasStdAbout } from '../stats/pandas-std.js';

/** Per column statistics of `describe_dataframe` (NaN = omitted), reused from call to call. */
export interface DescribeStats {
  mean: Float64Array;
  max: Float64Array;
  min: Float64Array;
  median: Float64Array;
  std: Float64Array;
}

/**
 * Count, smallest and largest of the non-NaN values of `v[start, end)` (Infinity / -Infinity for
 * none), one function and one pass each. Each loop is a function of its own that ends by returning a
 * local: code after a loop that has not run when the loop is compiled on the stack (in the first,
 * largest call) deoptimizes on every later call that enters the loop's compiled code (hundreds of
 * times a run, measured with --trace-deopt), and a store to a shared array after the loop did that too.
 */
function countNonNaN(v: Float64Array, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) if (v[i] === v[i]) count++;
  return count;
}

function minOf(v: Float64Array, start: number, end: number): number {
  let lo = Infinity;
  for (let i = start; i < end; i++) if ((v[i] as number) < lo) lo = v[i] as number;
  return lo;
}

function maxOf(v: Float64Array, start: number, end: number): number {
  let hi = -Infinity;
  for (let i = start; i < end; i++) if ((v[i] as number) > hi) hi = v[i] as number;
  return hi;
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
    max[c] = maxOf(v, start, end);
    min[c] = minOf(v, start, end);
    median[c] = pandasMedian(v, start, end);
    std[c] = count > 1 ? pandasStdAbout(v, start, n, avg, count - 1) : NaN;
    if (std[c] === std[c]) allStdNaN = false;
  }
  if (allStdNaN && anyComplete) {
    for (let c = 0; c < m; c++) if (hasNoNaN(columns[c] as Float64Array, start, end)) std[c] = 0;
  }
}
