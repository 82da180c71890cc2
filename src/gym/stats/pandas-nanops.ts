/**
 * pandas' skip-NaN reductions (`nanops`) and the numpy pieces under them, bit for bit: numpy's
 * pairwise sum, the mean and std of a column with NaN for missing values, range extremes.
 */
let buffer = new Float64Array(1024);

/**
 * A reusable Float64Array of at least `n` elements for the statistics' temporary values (its contents
 * are overwritten by the next caller). Keeps per-group statistics free of allocations.
 *
 * @example
 * const tmp = scratchBuffer(values.length).subarray(0, values.length);
 */
export function scratchBuffer(n: number): Float64Array {
  if (buffer.length < n) buffer = new Float64Array(Math.max(n, buffer.length * 2));
  return buffer;
}

function pairwiseDense(a: ArrayLike<number>, start: number, n: number): number {
  if (n < 8) {
    let res = -0.0;
    for (let i = start; i < start + n; i++) res += a[i] as number;
    return res;
  }
  if (n <= 128) {
    let r0 = a[start] as number;
    let r1 = a[start + 1] as number;
    let r2 = a[start + 2] as number;
    let r3 = a[start + 3] as number;
    let r4 = a[start + 4] as number;
    let r5 = a[start + 5] as number;
    let r6 = a[start + 6] as number;
    let r7 = a[start + 7] as number;
    const full = n - (n % 8);
    let i = 8;
    for (; i < full; i += 8) {
      const b = start + i;
      r0 += a[b] as number;
      r1 += a[b + 1] as number;
      r2 += a[b + 2] as number;
      r3 += a[b + 3] as number;
      r4 += a[b + 4] as number;
      r5 += a[b + 5] as number;
      r6 += a[b + 6] as number;
      r7 += a[b + 7] as number;
    }
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += a[start + i] as number;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseDense(a, start, n2) + pairwiseDense(a, start + n2, n - n2);
}

/**
 * numpy's pairwise summation (`DOUBLE_pairwise_sum`) of `n` values starting at `start`, bit for bit:
 * under 8 values a left-to-right sum from -0.0; up to 128 values eight interleaved partial sums
 * combined as `((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))` plus the leftover tail; longer runs split at
 * `n/2 - (n/2 % 8)` and summed recursively. With `nanAsZero`, NaN counts as 0 (pandas' skipna sum).
 *
 * @example
 * pairwiseSum(Float64Array.of(0.1, 0.2, 0.3)); // 0.6000000000000001
 */
export function pairwiseSum(
  values: ArrayLike<number>,
  start = 0,
  n: number = values.length - start,
  nanAsZero = false,
): number {
  if (!nanAsZero) return pairwiseDense(values, start, n);
  // pandas sums a copy with its NaNs replaced by 0
  const copy = scratchBuffer(n);
  for (let i = 0; i < n; i++) {
    const x = values[start + i] as number;
    copy[i] = x === x ? x : 0;
  }
  return pairwiseDense(copy, 0, n);
}

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

/**
 * The smallest and the largest of `v[start, end)`, NaN skipped (Infinity / -Infinity for none; of
 * equal values, the first is kept, so -0 and 0 come out as the first of them). Shared by the
 * statistics that need an extreme of a range (describe, the median's lower middle, the repeat-level
 * quantiles).
 *
 * @example
 * rangeMin(Float64Array.of(3, NaN, 1), 0, 3); // 1
 */
export function rangeMin(v: Float64Array, start: number, end: number): number {
  let lo = Infinity;
  for (let i = start; i < end; i++) if ((v[i] as number) < lo) lo = v[i] as number;
  return lo;
}

/** The largest of `v[start, end)`, as {@link rangeMin}. */
export function rangeMax(v: Float64Array, start: number, end: number): number {
  let hi = -Infinity;
  for (let i = start; i < end; i++) if ((v[i] as number) > hi) hi = v[i] as number;
  return hi;
}
