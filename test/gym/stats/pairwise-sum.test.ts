import { describe, expect, it } from 'vitest';
import { pairwiseSum } from '../../../src/gym/stats/pairwise-sum.js';
import { pandasMean } from '../../../src/gym/stats/pandas-mean.js';
import { pandasMedian } from '../../../src/gym/stats/pandas-median.js';
import { pandasStd } from '../../../src/gym/stats/pandas-std.js';
import { numpyQuantileLinear } from './numpy-quantile-linear.js';

describe('pairwiseSum (numpy DOUBLE_pairwise_sum)', () => {
  it('sums fewer than 8 values left to right', () => {
    expect(pairwiseSum([0.1, 0.2, 0.3])).toBe(0.1 + 0.2 + 0.3);
    expect(pairwiseSum([])).toBe(-0);
  });

  it('uses 8 interleaved accumulators from 8 values on (different from a running sum)', () => {
    // a running sum loses every 1 against 1e16 (ties to even); the 8 partial sums keep most
    const xs = [1e16, 1, 1, 1, 1, 1, 1, 1, -1e16];
    const running = xs.reduce((s, x) => s + x, 0);
    expect(running).toBe(0);
    // r0..r7 = 1e16, 1, …, 1; ((r0+r1)+(r2+r3)) = (1e16 + 2) after 1e16+1 ties to 1e16;
    // + ((1+1)+(1+1)) = 1e16 + 6; then the tail -1e16 → 6
    expect(pairwiseSum(xs)).toBe(6);
  });

  it('splits runs over 128 values at n/2 rounded down to a multiple of 8', () => {
    const xs = new Float64Array(129).fill(1);
    xs[0] = 1e16; // first half is 64 values, second 65
    // first half: r0 = 1e16 (each +1 ties back), r1..r7 = 8 → ((1e16+8)+16)+(16+16) = 1e16+56;
    // second half 65 → 1e16+121, which rounds to 1e16+120 (a single running sum would give 1e16)
    expect(pairwiseSum(xs)).toBe(1e16 + 120);
    expect(Array.from(xs).reduce((s, x) => s + x, 0)).toBe(1e16);
  });

  it('treats NaN as 0 when asked (pandas skipna)', () => {
    expect(pairwiseSum([1, NaN, 2], 0, 3, true)).toBe(3);
    expect(pairwiseSum([1, NaN, 2])).toBeNaN();
  });
});

describe('pandas statistics by hand', () => {
  it('mean/std/median skip NaN; std needs two values', () => {
    const v = Float64Array.of(1, NaN, 0);
    expect(pandasMean(v)).toBe(0.5);
    expect(pandasStd(v)).toBe(Math.SQRT1_2);
    expect(pandasMedian(v)).toBe(0.5);
    expect(pandasStd(Float64Array.of(3, NaN))).toBeNaN();
    expect(pandasMean(Float64Array.of(NaN))).toBeNaN();
    expect(pandasMedian(Float64Array.of(3, 1, 2))).toBe(2);
    expect(pandasMean(Float64Array.of(5, 1, 2, 9), 1, 3)).toBe(1.5);
  });

  it('numpy linear quantiles: the §16 example and both lerp branches', () => {
    expect(numpyQuantileLinear([0, 1], 0.25)).toBe(0.25);
    expect(numpyQuantileLinear([0, 1], 0.75)).toBe(0.75);
    expect(numpyQuantileLinear([1, 1], 0.25)).toBe(1);
    expect(numpyQuantileLinear([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(numpyQuantileLinear([1, 2, 3, 4], 0.75)).toBe(3.25);
    expect(numpyQuantileLinear([7], 0.75)).toBe(7);
    // g = 0.75 >= 0.5 takes b - (b-a)(1-g): 0.1 and 0.7 differ from a + (b-a)g in the last bit
    expect(numpyQuantileLinear([0.1, 0.7], 0.75)).toBe(0.7 - (0.7 - 0.1) * 0.25);
  });
});
