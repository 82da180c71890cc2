import { describe, expect, it } from 'vitest';
import { benjaminiHochbergAdjust, holmAdjust } from '../../src/stats/p-value-adjustments.js';
import { binomialTwoSidedP, exactMcNemar, signTest } from '../../src/stats/binomial-tests.js';
import { minimumDetectableEffect } from '../../src/stats/minimum-detectable-effect.js';
import { pairedBootstrapInterval } from '../../src/stats/paired-bootstrap-interval.js';
import { pairedPermutationTest } from '../../src/stats/paired-permutation-test.js';
import { clusteredMeanInterval } from '../../src/stats/clustered-mean-interval.js';
import { seededRandom } from '../../src/stats/seeded-random.js';

/** 2·P(Bin(n, ½) ≤ k) with exact integers. */
function exactTail(k: number, n: number): number {
  let c = 1n;
  let sum = 0n;
  for (let i = 0; i <= k; i++) {
    sum += c;
    c = (c * BigInt(n - i)) / BigInt(i + 1);
  }
  return Math.min(1, (2 * Number((sum * 10n ** 300n) / 2n ** BigInt(n))) / 1e300);
}

describe('exact binomial and McNemar', () => {
  it.each([
    [1, 6, 0.125], // 2·(1 + 7)/128
    [2, 10, 0.03857421875], // 2·(1 + 12 + 66)/4096
    [0, 0, 1],
    [3, 3, 1],
  ])('McNemar b=%i c=%i → p=%f', (b, c, p) => {
    expect(exactMcNemar(b, c).pValue).toBeCloseTo(p, 14);
  });

  it.each([
    [40, 100],
    [10, 200],
    [480, 1000],
  ])('binomial tail %i of %i equals the exact integer sum', (k, n) => {
    expect(binomialTwoSidedP(k, n)).toBeCloseTo(exactTail(k, n), 12);
    expect(binomialTwoSidedP(n - k, n)).toBe(binomialTwoSidedP(k, n));
  });

  it('keeps a tiny tail instead of rounding it to 0 (log-space sum beyond exact integers)', () => {
    // jstat's binomial CDF rounds to 1e-10; here the tail is about 1e-50
    const p = binomialTwoSidedP(300, 1100);
    expect(p).toBeGreaterThan(0);
    expect(p / exactTail(300, 1100)).toBeCloseTo(1, 9);
  });
});

describe('signTest', () => {
  it('counts signs, drops ties and tests against a fair coin', () => {
    // 5 positive, 1 negative: 2·(1 + 6)/64 = 0.21875
    expect(signTest([0.5, 1, 0.2, -0.1, 0.3, 0, 0.4])).toEqual({
      positive: 5,
      negative: 1,
      ties: 1,
      pValue: 0.21875,
    });
  });
});

describe('pairedPermutationTest', () => {
  it('enumerates small samples exactly', () => {
    // of the 8 sign assignments of 1, 2, 3 only +++ and −−− reach |Σ| = 6
    expect(pairedPermutationTest([1, 2, 3])).toMatchObject({ pValue: 0.25, exact: true, resamples: 8 });
    // |Σ| ≥ 2 for 1, 1, −1, 1: ++++ (4), and the 4 single flips of a + or − that keep |Σ| = 2 … counted by hand:
    // sums over the 16 assignments are ±4 (2), ±2 (8), 0 (6) → 10/16
    expect(pairedPermutationTest([1, 1, -1, 1]).pValue).toBe(10 / 16);
  });

  it('draws seeded random flips for large samples, close to the exact p and reproducible', () => {
    const next = seededRandom(3);
    const d = Array.from({ length: 16 }, () => next() - 0.35);
    const exact = pairedPermutationTest(d, { resamples: 2 ** 16 });
    const sampled = pairedPermutationTest(d, { resamples: 20_000, seed: 11 });
    expect(exact.exact).toBe(true);
    expect(sampled.exact).toBe(false);
    expect(Math.abs(sampled.pValue - exact.pValue)).toBeLessThan(0.01);
    expect(pairedPermutationTest(d, { resamples: 20_000, seed: 11 }).pValue).toBe(sampled.pValue);
  });
});

describe('pairedBootstrapInterval', () => {
  it('is reproducible for a seed and collapses when every difference is the same', () => {
    const clusters = [[0.2, 0.2], [0.2], [0.2, 0.2, 0.2]];
    const i = pairedBootstrapInterval(clusters, { seed: 5 });
    expect(i?.estimate).toBeCloseTo(0.2, 15);
    expect(i?.low).toBeCloseTo(0.2, 15);
    expect(i?.high).toBeCloseTo(0.2, 15);
  });

  it('agrees with the clustered t-interval on a larger sample', () => {
    const next = seededRandom(9);
    const clusters = Array.from({ length: 60 }, () => {
      const shift = next() - 0.4;
      return [shift + next() - 0.5, shift + next() - 0.5, shift + next() - 0.5];
    });
    const boot = pairedBootstrapInterval(clusters, { seed: 1, resamples: 4000 });
    const t = clusteredMeanInterval(clusters);
    expect(boot?.estimate).toBeCloseTo(t?.estimate as number, 14);
    const width = (t?.high as number) - (t?.low as number);
    expect(Math.abs((boot?.low as number) - (t?.low as number))).toBeLessThan(0.15 * width);
    expect(Math.abs((boot?.high as number) - (t?.high as number))).toBeLessThan(0.15 * width);
    expect(pairedBootstrapInterval(clusters, { seed: 1, resamples: 4000 })).toEqual(boot);
  });
});

describe('Holm and Benjamini–Hochberg', () => {
  // Benjamini & Hochberg (1995), section 4: 15 p-values; BH at q = 0.05 rejects 4, Holm (as
  // Bonferroni-type procedures in the paper) rejects 3.
  const bh1995 = [
    0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528,
    0.759, 1.0,
  ];
  it('reproduces the rejections of the 1995 example', () => {
    expect(benjaminiHochbergAdjust(bh1995).filter((p) => p <= 0.05)).toHaveLength(4);
    expect(holmAdjust(bh1995).filter((p) => p < 0.05)).toHaveLength(3);
  });

  it('matches hand-adjusted values in input order', () => {
    // Holm: sorted 0.01·3, 0.03·2, max(0.06, 0.04·1) → 0.03, 0.06, 0.06
    expect(holmAdjust([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    // BH: 0.04·3/3 = 0.04; 0.03·3/2 = 0.045 → min 0.04; 0.01·3 = 0.03
    const bh = benjaminiHochbergAdjust([0.01, 0.04, 0.03]);
    expect(bh[0]).toBeCloseTo(0.03, 15);
    expect(bh[1]).toBeCloseTo(0.04, 15);
    expect(bh[2]).toBeCloseTo(0.04, 15);
    expect(holmAdjust([0.5, NaN])).toEqual([0.5, NaN]);
  });
});

describe('minimumDetectableEffect', () => {
  it('is (z(0.975) + z(0.8)) · se', () => {
    // z(0.975) = 1.959963985, z(0.8) = 0.841621234
    expect(minimumDetectableEffect(0.1)).toBeCloseTo(0.2801585219, 8);
    expect(minimumDetectableEffect(0.1, { power: 0.9 })).toBeCloseTo((1.959963985 + 1.281551566) * 0.1, 8);
  });
});
