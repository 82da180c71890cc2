import { describe, expect, it } from 'vitest';
import { passAtK } from '../../../src/metrics/stats/pass-at-k.js';

describe('passAtK', () => {
  it.each([
    { n: 2, c: 0, k: 1, expected: 0.0 },
    { n: 2, c: 2, k: 1, expected: 1.0 },
    { n: 2, c: 1, k: 1, expected: 0.5 },
    { n: 2, c: 1, k: 2, expected: 1.0 }, // n − c < k
    { n: 1, c: 0, k: 1, expected: 0.0 },
    { n: 5, c: 0, k: 5, expected: 0.0 },
  ])('pass@$k with n=$n c=$c is $expected', ({ n, c, k, expected }) => {
    expect(passAtK(n, c, k)).toBe(expected);
  });

  it('multiplies (1 − k/i) in ascending i, as the SDK: 1/3 and 5/6 to the last bit', () => {
    // n=3, c=1, k=1: 1 − (1 − 1/3)(1 − 1/2)... product over i = 3..3 only: 1 − (1 − 1/3)
    expect(passAtK(3, 1, 1)).toBe(1 - (1 - 1 / 3));
    // n=4, c=2, k=2: 1 − (1 − 2/3)(1 − 2/4) = 1 − C(2,2)/C(4,2) = 5/6
    expect(passAtK(4, 2, 2)).toBe(1 - (1 - 2 / 3) * (1 - 2 / 4));
    expect(passAtK(4, 2, 2)).toBeCloseTo(5 / 6, 15);
  });

  it('agrees with the binomial form 1 − C(n−c,k)/C(n,k)', () => {
    const choose = (n: number, k: number): number => {
      let r = 1;
      for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
      return r;
    };
    for (let n = 1; n <= 12; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) {
          const exact = n - c < k ? 1 : 1 - choose(n - c, k) / choose(n, k);
          expect(passAtK(n, c, k)).toBeCloseTo(exact, 12);
        }
  });

  it('stops once the product has underflowed to 0, with the bits of the full product', () => {
    // the SDK's loop without the early stop, as the independent oracle
    const full = (n: number, c: number, k: number): number => {
      if (n - c < k) return 1.0;
      let product = 1.0;
      for (let i = n - c + 1; i <= n; i++) product *= 1.0 - k / i;
      return 1.0 - product;
    };
    const cases: [number, number, number][] = [
      [20_000, 10_000, 2_000], // underflows early: 1.0
      [20_000, 10_000, 1], // no underflow
      [140_000, 70_000, 40], // no underflow
      [140_000, 70_000, 1_075], // underflows near the end
      [140_000, 70_000, 1_070], // ends just above the smallest subnormal
      [140_000, 70_000, 70_000],
      [3_000, 7, 2_993],
    ];
    let seed = 7;
    for (let j = 0; j < 200; j++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const n = 1 + (seed % 5_000);
      const c = seed % (n + 1);
      const k = 1 + ((seed >> 7) % n);
      cases.push([n, c, k]);
    }
    for (const [n, c, k] of cases)
      expect(Object.is(passAtK(n, c, k), full(n, c, k)), `${n} ${c} ${k}`).toBe(true);
    expect(passAtK(20_000, 10_000, 2_000)).toBe(1);
  });
});
