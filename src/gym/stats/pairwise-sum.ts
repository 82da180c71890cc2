import { scratchBuffer } from './scratch-buffer.js';

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
