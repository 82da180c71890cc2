import { PERCENTILE_KEYS, type Percentiles } from '../../model/summary.js';

const PERCENTS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] as const;

/**
 * p10, p20, …, p100 of ascending `sorted` values with the SDK's rank rule: `pos = (p/100)·(n+1) − 1`;
 * `pos ≤ 0` → the first value, `pos ≥ n−1` → the last, else linear interpolation between
 * `sorted[⌊pos⌋]` and the next. Returns null for an empty input (the SDK never asks then).
 *
 * @example
 * computePercentiles([0, 1]); // { p10: 0, p20: 0, p30: 0, p40: 0.2000000000000002, p50: 0.5, p60: 0.7999999999999998, p70: 1, ... }
 */
export function computePercentiles(sorted: ArrayLike<number>): Percentiles | null {
  const n = sorted.length;
  if (n === 0) return null;
  const out = {} as Percentiles;
  for (let j = 0; j < PERCENTS.length; j++) {
    const pos = ((PERCENTS[j] as number) / 100.0) * (n + 1) - 1;
    let value: number;
    if (pos <= 0) {
      value = sorted[0] as number;
    } else if (pos >= n - 1) {
      value = sorted[n - 1] as number;
    } else {
      const lower = Math.trunc(pos);
      const frac = pos - lower;
      const a = sorted[lower] as number;
      value = a + frac * ((sorted[lower + 1] as number) - a);
    }
    out[PERCENTILE_KEYS[j] as keyof Percentiles] = value;
  }
  return out;
}
