import { scratchBuffer } from './scratch-buffer.js';

/**
 * pandas/numpy `median()` ignoring NaN over `values[start, end)`: the middle value of the sorted
 * values, or `(a + b) / 2` of the two middle values for an even count. NaN when there is no value.
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
  if (n <= 32) {
    for (let i = 1; i < n; i++) {
      const x = buf[i] as number;
      let j = i - 1;
      while (j >= 0 && (buf[j] as number) > x) {
        buf[j + 1] = buf[j] as number;
        j--;
      }
      buf[j + 1] = x;
    }
  } else buf.subarray(0, n).sort();
  const mid = n >> 1;
  if (n % 2 === 1) return buf[mid] as number;
  return ((buf[mid - 1] as number) + (buf[mid] as number)) / 2;
}
