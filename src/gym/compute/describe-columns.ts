import type { PyJsonObject } from '../../pycompat/py-json.js';
import { computeDescribeStats, DescribeStats } from './compute-describe-stats.js';
import type { DescribeKeys } from './describe-keys.js';

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
  stats = new DescribeStats(columns.length),
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
