import { scratchBuffer } from './pandas-nanops.js';

/**
 * pandas/numpy `median()` ignoring NaN over `values[start, end)`: the middle value of the sorted
 * values, or `(a + b) / 2` of the two middle values for an even count. NaN when there is no value.
 * Up to 32 values (a task's rollouts) an insertion sort, which keeps -0 and 0 in their order and
 * allocates nothing; above, the native sort, which puts -0 before 0.
 *
 * @example
 * pandasMedian(Float64Array.of(3, NaN, 1, 2, 10)); // 2.5
 */
export function pandasMedian(values: ArrayLike<number>, start = 0, end: number = values.length): number {
  const buf = scratchBuffer(end - start);
  let n = 0;
  for (let i = start; i < end; i++) {
    const x = values[i] as number;
    if (x === x) buf[n++] = x;
  }
  if (n === 0) return NaN;
  if (n > 32) return sortedMedian(buf.subarray(0, n).sort());
  for (let i = 1; i < n; i++) {
    const x = buf[i] as number;
    let j = i - 1;
    for (; j >= 0 && (buf[j] as number) > x; j--) buf[j + 1] = buf[j] as number;
    buf[j + 1] = x;
  }
  return sortedMedian(buf, n);
}

/** The median of the sorted values `sorted[0, n)` (n > 0): the middle one, or the mean of the two. */
export function sortedMedian(sorted: Float64Array, n: number = sorted.length): number {
  const mid = n >> 1;
  if (n % 2 === 1) return sorted[mid] as number;
  return ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
