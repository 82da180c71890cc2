import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeValues, sortFloatsLikePython } from '../../../src/metrics/stats/describe-values.js';
import { PERCENTILE_KEYS } from '../../../src/model/summary.js';

interface OracleCase {
  values: number[];
  expected: {
    count: number;
    sum?: number;
    mean?: number;
    min?: number;
    max?: number;
    variance?: number;
    std_dev?: number;
    sample_variance?: number | null;
    sample_std_dev?: number | null;
    percentiles?: number[];
  };
}

const oracle = JSON.parse(
  readFileSync(new URL('../../fixtures/summary/python-describe-cases.json', import.meta.url), 'utf8'),
) as { python: string; cases: OracleCase[] };

describe('describeValues', () => {
  it('hand-computed: [1.0, 0.0] (the §9 reward row)', () => {
    const d = describeValues([1, 0]);
    expect(d).toMatchObject({
      count: 2,
      sum: 1,
      mean: 0.5,
      min: 0,
      max: 1,
      variance: 0.25,
      std_dev: 0.5,
      sample_variance: 0.5,
      sample_std_dev: Math.SQRT1_2,
      median: 0.5,
    });
  });

  it('one value: population stats 0, sample stats null', () => {
    const d = describeValues([0.75]);
    expect(d).toMatchObject({ count: 1, sum: 0.75, mean: 0.75, variance: 0, std_dev: 0 });
    expect(d.sample_variance).toBeNull();
    expect(d.sample_std_dev).toBeNull();
  });

  it('count 0 (no values, or only non-finite ones): every statistic null', () => {
    for (const values of [[], [NaN, Infinity, -Infinity]]) {
      expect(describeValues(values)).toEqual({
        count: 0,
        sum: null,
        mean: null,
        min: null,
        max: null,
        variance: null,
        std_dev: null,
        sample_variance: null,
        sample_std_dev: null,
        percentiles: null,
        median: null,
      });
    }
  });

  it('drops non-finite values and keeps the finite ones in order', () => {
    const d = describeValues([NaN, 2, Infinity, 4, -Infinity]);
    expect(d).toMatchObject({ count: 2, sum: 6, mean: 3, min: 2, max: 4, variance: 1, sample_variance: 2 });
  });

  it('compensated sum: ten 0.1s sum to 1.0 and mean 0.1', () => {
    const d = describeValues(Array(10).fill(0.1));
    expect(d.sum).toBe(1);
    expect(d.mean).toBe(0.1);
  });

  it('min/max are first-wins between 0.0 and -0.0, as Python min()/max()', () => {
    expect(Object.is(describeValues([0, -0]).min, 0)).toBe(true);
    expect(Object.is(describeValues([-0, 0]).min, -0)).toBe(true);
    expect(Object.is(describeValues([-0, 0]).max, -0)).toBe(true);
  });

  it(`matches CPython (${oracle.python}) bit for bit on ${oracle.cases.length} oracle cases`, () => {
    for (const { values, expected } of oracle.cases) {
      const d = describeValues(values);
      expect(d.count).toBe(expected.count);
      expect(d.sum).toBe(expected.sum);
      expect(d.mean).toBe(expected.mean);
      expect(d.min).toBe(expected.min);
      expect(d.max).toBe(expected.max);
      expect(d.variance).toBe(expected.variance);
      expect(d.std_dev).toBe(expected.std_dev);
      expect(d.sample_variance).toBe(expected.sample_variance);
      expect(d.sample_std_dev).toBe(expected.sample_std_dev);
      expect(PERCENTILE_KEYS.map((k) => d.percentiles?.[k])).toEqual(expected.percentiles);
      expect(d.median).toBe(expected.percentiles?.[4]);
    }
  });
});

describe('sortFloatsLikePython', () => {
  it('sorts ascending', () => {
    expect([...sortFloatsLikePython([3, 1, 2, -5])]).toEqual([-5, 1, 2, 3]);
  });

  it('keeps 0.0 and -0.0 in input order, as the stable sorted() (sorted([0.0, -0.0, -1.0]) == [-1.0, 0.0, -0.0])', () => {
    const s = sortFloatsLikePython([0, -0, -1]);
    expect(s[0]).toBe(-1);
    expect(Object.is(s[1], 0)).toBe(true);
    expect(Object.is(s[2], -0)).toBe(true);
  });
});
