import type { PyJsonObject } from '../py-json.js';
import { pandasMean } from '../stats/pandas-mean.js';
import { pandasMedian } from '../stats/pandas-median.js';
import { pandasStd } from '../stats/pandas-std.js';
import type { DescribeKeys } from './describe-keys.js';

/**
 * Gym's `describe_dataframe` for the rows `[start, end)` of `columns`, as it ends up in the JSON:
 * every `mean/*`, then `max/*`, `min/*`, `median/*`, `std/*` over the columns in order; if every std
 * is NaN, std becomes 0.0 for each column without a missing value in the rows; NaN statistics are
 * omitted. Max and min are ints only when `intMaxMin` (all frame columns are int64), floats otherwise.
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
): PyJsonObject {
  const m = columns.length;
  const mean = new Float64Array(m);
  const max = new Float64Array(m);
  const min = new Float64Array(m);
  const median = new Float64Array(m);
  const std = new Float64Array(m);
  const complete = new Uint8Array(m);
  let allStdNaN = true;
  for (let c = 0; c < m; c++) {
    const v = columns[c] as Float64Array;
    let hi = -Infinity;
    let lo = Infinity;
    let count = 0;
    for (let i = start; i < end; i++) {
      const x = v[i] as number;
      if (x !== x) continue;
      count++;
      if (x > hi) hi = x;
      if (x < lo) lo = x;
    }
    complete[c] = count === end - start ? 1 : 0;
    mean[c] = pandasMean(v, start, end);
    max[c] = count > 0 ? hi : NaN;
    min[c] = count > 0 ? lo : NaN;
    median[c] = pandasMedian(v, start, end);
    std[c] = pandasStd(v, start, end);
    if (std[c] === std[c]) allStdNaN = false;
  }
  if (allStdNaN) for (let c = 0; c < m; c++) if (complete[c]) std[c] = 0;
  const out: PyJsonObject = {};
  const put = (names: string[], values: Float64Array, asInt: boolean): void => {
    for (let c = 0; c < m; c++) {
      const x = values[c] as number;
      if (x !== x) continue;
      out[names[c] as string] = asInt ? BigInt(x) : x;
    }
  };
  put(keys.mean, mean, false);
  put(keys.max, max, intMaxMin);
  put(keys.min, min, intMaxMin);
  put(keys.median, median, false);
  put(keys.std, std, false);
  return out;
}
