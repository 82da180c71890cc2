import { scratchBuffer } from './scratch-buffer.js';
import { rangeMax } from './range-extremes.js';
import { selectKth } from './select-kth.js';

/** Up to this many values the median is taken from a sort (insertion sort), above by selection. */
const SORT_MAX = 32;

/**
 * pandas/numpy `median()` ignoring NaN over `values[start, end)`: the middle value of the sorted
 * values, or `(a + b) / 2` of the two middle values for an even count. NaN when there is no value.
 *
 * @example
 * pandasMedian(Float64Array.of(3, NaN, 1, 2, 10)); // 2.5
 */
export function pandasMedian(values: ArrayLike<number>, start = 0, end: number = values.length): number {
  const buf = scratchBuffer(end - start);
  const n = copyNonNaN(values, start, end, buf);
  if (n === 0) return NaN;
  if (n <= SORT_MAX) {
    insertionSort(buf, n);
    return sortedMedian(buf, n);
  }
  // the one or two middle order statistics by selection (linear) instead of a sort
  const mid = n >> 1;
  selectKth(buf, mid, 0, n - 1);
  let hi = buf[mid] as number;
  if (n % 2 === 1) return hi === 0 ? zeroAt(buf, n, mid) : hi;
  let lo = rangeMax(buf, 0, mid);
  if (lo === 0) lo = zeroAt(buf, n, mid - 1);
  if (hi === 0) hi = zeroAt(buf, n, mid);
  return (lo + hi) / 2;
}

/** The median of the sorted values `buf[0, n)` (n > 0): the middle one, or the mean of the two. */
function sortedMedian(buf: Float64Array, n: number): number {
  const mid = n >> 1;
  if (n % 2 === 1) return buf[mid] as number;
  return ((buf[mid - 1] as number) + (buf[mid] as number)) / 2;
}

/** Copies the non-NaN values of `values[start, end)` to the front of `buf`; returns their count. */
function copyNonNaN(values: ArrayLike<number>, start: number, end: number, buf: Float64Array): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const x = values[i] as number;
    if (x === x) buf[n++] = x;
  }
  return n;
}

/**
 * Sorts `buf[0, n)` ascending (n small), stably: equal values (-0 and 0) keep their order, so a
 * range's first minimum is `buf[0]`.
 */
function insertionSort(buf: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const x = buf[i] as number;
    let j = i - 1;
    while (j >= 0 && (buf[j] as number) > x) {
      buf[j + 1] = buf[j] as number;
      j--;
    }
    buf[j + 1] = x;
  }
}

/**
 * The zero at position `k` of the sorted `buf[0, n)` (whose value there is ±0): a sort puts -0
 * before +0, which selection does not tell apart.
 */
function zeroAt(buf: Float64Array, n: number, k: number): number {
  let negative = 0;
  let negativeZero = 0;
  for (let i = 0; i < n; i++) {
    const x = buf[i] as number;
    if (x < 0) negative++;
    else if (x === 0 && 1 / x < 0) negativeZero++;
  }
  return k >= negative && k < negative + negativeZero ? -0 : 0;
}
