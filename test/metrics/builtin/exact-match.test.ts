import { describe, expect, it } from 'vitest';
import { exactMatch } from '../../../src/metrics/builtin/exact-match.js';
import { runMetric } from './run-metric.js';

describe('exact_match', () => {
  it('compares trimmed text, case-sensitive by default', async () => {
    expect(await runMetric(exactMatch(), '  Paris\n', { expected: 'Paris' })).toEqual({ score: 1 });
    expect(await runMetric(exactMatch(), 'paris', { expected: 'Paris' })).toEqual({ score: 0 });
    expect(await runMetric(exactMatch({ caseSensitive: false }), 'paris', { expected: 'Paris' })).toEqual({
      score: 1,
    });
  });
  it('honours trim and collapseWhitespace', async () => {
    expect(await runMetric(exactMatch({ trim: false }), ' a', { expected: 'a' })).toEqual({ score: 0 });
    expect(
      await runMetric(exactMatch({ collapseWhitespace: true }), 'New   York', { expected: 'New York' }),
    ).toEqual({
      score: 1,
    });
  });
  it('accepts a list of answers and non-string references', async () => {
    expect(await runMetric(exactMatch(), 'b', { expected: ['a', 'b'] })).toEqual({ score: 1 });
    expect(await runMetric(exactMatch(), '42', { expected: 42 })).toEqual({ score: 1 });
  });
  it('scores a missing answer 0 and fails on a missing reference', async () => {
    expect(await runMetric(exactMatch(), null, { expected: 'x' })).toEqual({ score: 0 });
    await expect(runMetric(exactMatch(), 'x', {})).rejects.toThrow("task 'A' has no reference 'expected'");
    expect(await runMetric(exactMatch({ referenceKey: 'gold' }), 'x', { gold: 'x' })).toEqual({ score: 1 });
  });
  it('takes a type and refuses unknown options', () => {
    expect(exactMatch({ type: 'em2' }).type).toBe('em2');
    expect(() => exactMatch({ nope: 1 } as never)).toThrow(/nope/);
  });
});
