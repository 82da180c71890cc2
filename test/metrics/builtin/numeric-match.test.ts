import { describe, expect, it } from 'vitest';
import { numericMatch } from '../../../src/metrics/builtin/numeric-match.js';
import { runMetric } from './run-metric.js';

describe('numeric_match', () => {
  it('takes the last number by default and applies the absolute tolerance', async () => {
    expect(await runMetric(numericMatch(), 'step 1: 3, so the answer is 42.', { expected: 42 })).toEqual({
      score: 1,
      abs_error: 0,
    });
    expect(await runMetric(numericMatch(), 'maybe 41', { expected: '42' })).toEqual({
      score: 0,
      abs_error: 1,
    });
  });
  it('first / whole extraction and thousands separators', async () => {
    expect(await runMetric(numericMatch({ extract: 'first' }), '1,234 then 5', { expected: 1234 })).toEqual({
      score: 1,
      abs_error: 0,
    });
    expect(await runMetric(numericMatch({ extract: 'whole' }), ' -2.5e1 ', { expected: -25 })).toEqual({
      score: 1,
      abs_error: 0,
    });
    expect(await runMetric(numericMatch({ extract: 'whole' }), 'about 25', { expected: 25 })).toEqual({
      score: 0,
    });
  });
  it('relative tolerance: |a-b| <= max(absTol, relTol*|b|)', async () => {
    const m = numericMatch({ relTol: 0.01 });
    expect(await runMetric(m, 'about 99.5 km', { expected: 100 })).toEqual({ score: 1, abs_error: 0.5 });
    expect(await runMetric(m, '98.9', { expected: 100 })).toMatchObject({ score: 0 });
    expect(await runMetric(numericMatch({ absTol: 0.5 }), '10.5', { expected: 10 })).toMatchObject({
      score: 1,
    });
  });
  it('no number in the answer: score 0 and abs_error omitted', async () => {
    expect(await runMetric(numericMatch(), 'no idea', { expected: 1 })).toEqual({ score: 0 });
    expect(await runMetric(numericMatch(), null, { expected: 1 })).toEqual({ score: 0 });
  });
  it('fails on a non-numeric reference', async () => {
    await expect(runMetric(numericMatch(), '1', { expected: 'one' })).rejects.toThrow(/not a number/);
    expect(() => numericMatch({ absTol: -1 })).toThrow();
  });
});
