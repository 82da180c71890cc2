import { describe, expect, it } from 'vitest';
import { studentTQuantile } from '../../src/pycompat/student-t-quantile.js';
import { tConfidenceInterval } from '../../src/gym/stats/t-confidence-interval.js';

// spec §7: t* = scipy 1.15.3 t.ppf(0.975, df); those carry up to ~4e-11 relative error of their own
const SPEC_T: [number, number][] = [
  [1, 12.706204736432095],
  [2, 4.302652729696142],
  [3, 3.182446305284263],
  [4, 2.7764451051977987],
  [5, 2.570581835636314],
  [6, 2.4469118511449692],
  [7, 2.3646242515927844],
  [8, 2.306004135204166],
  [9, 2.2621571628540993],
  [10, 2.2281388519649385],
  [19, 2.093024054408263],
  [29, 2.045229642132703],
  [99, 1.9842169515086827],
  [999, 1.9623414611334487],
  [9999, 1.9602012636213575],
];

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

describe('studentTQuantile', () => {
  it.each(SPEC_T)('df=%i agrees with the spec table within scipy 1.15’s own error (5e-11)', (df, t) => {
    expect(rel(studentTQuantile(0.975, df), t)).toBeLessThan(5e-11);
  });

  it('df=1 and df=2 are the exact closed forms (tan(0.475π), 0.95/√0.04875)', () => {
    expect(rel(studentTQuantile(0.975, 1), 12.7062047361747)).toBeLessThan(1e-14);
    expect(rel(studentTQuantile(0.975, 2), 0.95 / Math.sqrt(0.04875))).toBeLessThan(1e-15);
  });

  it('is antisymmetric (scipy’s two tails are exact opposites) and NaN outside its domain', () => {
    expect(studentTQuantile((1 - 0.95) / 2, 5)).toBe(-studentTQuantile(1 - (1 - 0.95) / 2, 5));
    expect(studentTQuantile(0.5, 7)).toBe(0);
    expect(studentTQuantile(0.975, 0)).toBeNaN();
    expect(studentTQuantile(1, 3)).toBeNaN();
    expect(studentTQuantile(0.975, 2.5)).toBeNaN();
  });
});

describe('tConfidenceInterval (§7)', () => {
  it('the worked example of §16: repeat 1 and across repeats', () => {
    const r1 = tConfidenceInterval(0.5, 0.5, 2);
    expect(r1?.zeroSe).toBe(false);
    expect(rel(r1?.low as number, -5.853102368216048)).toBeLessThan(5e-11);
    expect(rel(r1?.high as number, 6.853102368216048)).toBeLessThan(5e-11);
    // exact: 0.5 ∓ 0.5·tan(0.475π)
    expect(r1?.high).toBe(0.5 * studentTQuantile(0.975, 1) + 0.5);
    const across = tConfidenceInterval(0.75, 0.25, 2);
    expect(rel(across?.low as number, -2.426551184108024)).toBeLessThan(5e-11);
    expect(rel(across?.high as number, 3.926551184108024)).toBeLessThan(5e-11);
  });

  it('n <= 1 gives no interval; se === 0 collapses to (m, m) and flags it', () => {
    expect(tConfidenceInterval(1, 0, 1)).toBeNull();
    expect(tConfidenceInterval(1, 0, 0)).toBeNull();
    expect(tConfidenceInterval(1, 0, 2)).toEqual({ low: 1, high: 1, zeroSe: true });
  });

  it('zero variance is a floating-point question: three copies of 0.1 give a tiny real interval', () => {
    const xs = [0.1, 0.1, 0.1];
    const mean = (xs[0]! + xs[1]! + xs[2]!) / 3; // 0.10000000000000002
    const std = Math.sqrt(xs.reduce((s, x) => s + (mean - x) ** 2, 0) / 2);
    expect(std).toBeGreaterThan(0);
    const ci = tConfidenceInterval(mean, std / Math.sqrt(3), 3);
    expect(ci?.zeroSe).toBe(false);
    expect((ci?.high as number) - (ci?.low as number)).toBeLessThan(1e-15);
  });
});
