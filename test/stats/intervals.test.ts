import { describe, expect, it } from 'vitest';
import { clusteredMeanInterval } from '../../src/stats/clustered-mean-interval.js';
import { studentTIntervalFromMoments } from '../../src/stats/student-t-interval-from-moments.js';
import { wilsonInterval } from '../../src/stats/bundle-stats.js';

/** The Student-t interval of independent values, from their mean and sample standard deviation. */
function studentTInterval(values: readonly number[]): ReturnType<typeof studentTIntervalFromMoments> {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return studentTIntervalFromMoments(mean, Math.sqrt(ss / (values.length - 1)), values.length);
}

describe('studentTIntervalFromMoments', () => {
  it('matches a hand calculation: 1, 2, 3, 4', () => {
    // mean 2.5, s² = (2.25 + 0.25 + 0.25 + 2.25)/3 = 5/3, se = √(5/12); t(0.975, 3) = 3.182446305 (tables)
    const i = studentTIntervalFromMoments(2.5, Math.sqrt(5 / 3), 4);
    const half = 3.182446305284263 * Math.sqrt(5 / 12);
    expect(i).toMatchObject({ method: 'student_t', estimate: 2.5, df: 3, n: 4 });
    expect(i?.se).toBeCloseTo(Math.sqrt(5 / 12), 12);
    expect(i?.low).toBeCloseTo(2.5 - half, 9);
    expect(i?.high).toBeCloseTo(2.5 + half, 9);
  });

  it('needs two finite values', () => {
    expect(studentTIntervalFromMoments(0.5, 0.5, 1)).toBeNull();
    expect(studentTIntervalFromMoments(NaN, 0.5, 4)).toBeNull();
  });

  it('from moments: 90 % interval with t(0.95, 9) = 1.833113', () => {
    const i = studentTIntervalFromMoments(10, 3, 10, 0.9);
    expect(i?.high).toBeCloseTo(10 + 1.833112933 * (3 / Math.sqrt(10)), 8);
  });
});

describe('clusteredMeanInterval (Miller 2024)', () => {
  it('matches a hand calculation on three tasks of two trials', () => {
    // x̄ = 0.5; residuals ±0.5; Σr² = 1.5 → SE_CLT² = 1.5/(6·5) = 0.05.
    // cross terms per task: (Σr)² − Σr² = 1 − 0.5, 1 − 0.5, 0 − 0.5 → 0.5 in all, / n² = 0.5/36.
    const i = clusteredMeanInterval([
      [1, 1],
      [0, 0],
      [1, 0],
    ]);
    const se = Math.sqrt(0.05 + 0.5 / 36);
    expect(i).toMatchObject({ method: 'clustered_t', estimate: 0.5, df: 2, n: 6 });
    expect(i?.se).toBeCloseTo(se, 14);
    // t(0.975, 2) = 4.302652730 (closed form: 2·0.95/√(2·(1 − 0.95²)))
    expect(i?.high).toBeCloseTo(0.5 + 4.30265272974946 * se, 9);
  });

  it('equals the ordinary standard error when every task has one trial', () => {
    const values = [0.2, 0.9, 0.4, 0.4, 1];
    const clustered = clusteredMeanInterval(values.map((v) => [v]));
    expect(clustered?.se).toBeCloseTo(studentTInterval(values)?.se as number, 14);
  });

  it('is wider than the naive interval when trials of a task agree', () => {
    const tasks = [
      [1, 1, 1],
      [0, 0, 0],
      [1, 1, 1],
      [0, 0, 0],
    ];
    const clustered = clusteredMeanInterval(tasks);
    const naive = studentTInterval(tasks.flat());
    expect(clustered?.se as number).toBeGreaterThan(naive?.se as number);
  });

  it('needs two non-empty clusters', () => {
    expect(clusteredMeanInterval([[1, 0, 1], []])).toBeNull();
  });
});

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i → [%f, %f]', (x, n, lo, hi) => {
    const i = wilsonInterval(x, n);
    expect(i?.low).toBeCloseTo(lo, 4);
    expect(i?.high).toBeCloseTo(hi, 4);
    expect(i?.estimate).toBe(x / n);
  });

  it('stays inside [0, 1] and refuses impossible counts', () => {
    expect(wilsonInterval(5, 5)).toMatchObject({ high: 1 });
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });
});
