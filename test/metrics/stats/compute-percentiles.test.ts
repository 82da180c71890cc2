import { describe, expect, it } from 'vitest';
import { computePercentiles } from '../../../src/metrics/stats/describe-values.js';

describe('computePercentiles', () => {
  it('is null for no values', () => {
    expect(computePercentiles([])).toBeNull();
  });

  it('repeats a single value', () => {
    expect(Object.values(computePercentiles([0.25]) ?? {})).toEqual(Array(10).fill(0.25));
  });

  it('uses pos = (p/100)(n+1) − 1, clamping at both ends (the §9 reward row)', () => {
    // n=2: pos(p10..p30) ≤ 0 → 0.0; p40: pos = 0.4·3 − 1 = 0.20000000000000018 → interpolated;
    // p50: 0.5; p60: 0.6·3 − 1 = 0.7999999999999998; p70.. pos ≥ 1 → 1.0
    expect(computePercentiles([0, 1])).toEqual({
      p10: 0,
      p20: 0,
      p30: 0,
      p40: 0.4 * 3 - 1,
      p50: 0.5,
      p60: 0.6 * 3 - 1,
      p70: 1,
      p80: 1,
      p90: 1,
      p100: 1,
    });
  });

  it('interpolates between neighbours: n=4 values 10,20,30,40', () => {
    // p50: pos = 1.5 → 20 + 0.5·10 = 25; p20: pos = 0 → 10; p80: pos = 3 → last
    const p = computePercentiles([10, 20, 30, 40]);
    expect(p?.p50).toBe(25);
    expect(p?.p20).toBe(10);
    expect(p?.p80).toBe(40);
    // p30: pos = 0.3·5 − 1 = 0.5 → 15; p70: pos = 0.7·5 − 1 = 2.5 → 35
    expect(p?.p30).toBe(15);
    expect(p?.p70).toBe(35);
  });
});
