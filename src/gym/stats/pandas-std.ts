import { pairwiseSum } from './pairwise-sum.js';
import { scratchBuffer } from './scratch-buffer.js';

/**
 * pandas' `std(ddof=1)` (`nanops.nanvar` + sqrt) over `values[start, end)`, two passes as pandas does
 * them: the mean from the pairwise sum with NaN as 0, then the pairwise sum of `(mean - x)²` with NaN
 * positions as 0, divided by `count - ddof`, then the square root. NaN when `count - ddof <= 0`.
 *
 * @example
 * pandasStd(Float64Array.of(1, 0)); // 0.7071067811865476
 */
export function pandasStd(
  values: ArrayLike<number>,
  start = 0,
  end: number = values.length,
  ddof = 1,
): number {
  const n = end - start;
  let count = 0;
  for (let i = start; i < end; i++) if (values[i] === values[i]) count++;
  const d = count - ddof;
  if (d <= 0) return NaN;
  const avg = (0 + pairwiseSum(values, start, n, count !== n)) / count;
  return pandasStdAbout(values, start, n, avg, d);
}

/**
 * The second pass of {@link pandasStd} over `values[start, start + n)`, given its first: `avg` (the
 * pandas mean of the range) and `d = count - ddof > 0`. Lets a caller that has the mean already
 * (e.g. `describe`) skip computing it again; the result is the same bits.
 */
export function pandasStdAbout(
  values: ArrayLike<number>,
  start: number,
  n: number,
  avg: number,
  d: number,
): number {
  const sqr = scratchBuffer(n);
  squaredDeviations(values, start, n, avg, sqr);
  return Math.sqrt((0 + pairwiseSum(sqr, 0, n)) / d);
}

/** `sqr[i] = (avg - values[start + i])²`, 0 for NaN. */
function squaredDeviations(
  values: ArrayLike<number>,
  start: number,
  n: number,
  avg: number,
  sqr: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const x = values[start + i] as number;
    if (x === x) {
      const dx = avg - x;
      sqr[i] = dx * dx;
    } else sqr[i] = 0;
  }
}
