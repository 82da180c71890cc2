import { pairwiseSum } from './pairwise-sum.js';

/**
 * pandas' `mean()` of a column with missing values as NaN (`nanops.nanmean`) over `values[start, end)`:
 * the NaNs are replaced by 0, the range is summed with numpy's pairwise summation and divided by the
 * count of non-NaN values. NaN when there is no value.
 *
 * @example
 * pandasMean(Float64Array.of(1, NaN, 0)); // 0.5
 */
export function pandasMean(values: ArrayLike<number>, start = 0, end: number = values.length): number {
  let count = 0;
  for (let i = start; i < end; i++) if (values[i] === values[i]) count++;
  return pandasMeanOfCount(values, start, end, count);
}

/** {@link pandasMean} when the count of non-NaN values in the range is known already. */
export function pandasMeanOfCount(
  values: ArrayLike<number>,
  start: number,
  end: number,
  count: number,
): number {
  if (count === 0) return NaN;
  return (0 + pairwiseSum(values, start, end - start, count !== end - start)) / count;
}
