import { describe, expect, it } from 'vitest';
import { contains } from '../../../src/metrics/builtin/contains.js';
import { runMetric } from './run-metric.js';

describe('contains', () => {
  it('needs all keywords by default, case-insensitively', async () => {
    expect(await runMetric(contains(), 'Paris is in FRANCE', { expected: ['paris', 'france'] })).toEqual({
      score: 1,
      matched_fraction: 1,
    });
    expect(
      await runMetric(contains(), 'Paris', { expected: ['paris', 'france', 'europe', 'seine'] }),
    ).toEqual({
      score: 0,
      matched_fraction: 0.25,
    });
  });
  it('mode any, case-sensitive, keywords from options', async () => {
    const m = contains({ keywords: ['Paris', 'Lyon'], mode: 'any', caseSensitive: true });
    expect(await runMetric(m, 'I like Lyon', {})).toEqual({ score: 1, matched_fraction: 0.5 });
    expect(await runMetric(m, 'i like lyon', {})).toEqual({ score: 0, matched_fraction: 0 });
  });
  it('a single string reference is one keyword; no answer scores 0', async () => {
    expect(await runMetric(contains(), 'the answer is 42', { expected: '42' })).toEqual({
      score: 1,
      matched_fraction: 1,
    });
    expect(await runMetric(contains(), null, { expected: '42' })).toEqual({ score: 0, matched_fraction: 0 });
  });
  it('fails on an unusable reference and bad options', async () => {
    await expect(runMetric(contains(), 'x', { expected: [1] })).rejects.toThrow(/list of non-empty strings/);
    await expect(runMetric(contains(), 'x', { expected: [] })).rejects.toThrow(/list of non-empty strings/);
    expect(() => contains({ keywords: [] })).toThrow();
    expect(() => contains({ mode: 'most' as never })).toThrow();
  });
});
