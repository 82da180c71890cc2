import { describe, expect, it } from 'vitest';
import { regexMatch } from '../../../src/metrics/builtin/regex-match.js';
import { runMetric } from './run-metric.js';

describe('regex_match', () => {
  it('searches with the options pattern and flags', async () => {
    const m = regexMatch({ pattern: 'answer:\\s*\\d+', flags: 'i' });
    expect(await runMetric(m, 'Final ANSWER: 42', {})).toEqual({ score: 1 });
    expect(await runMetric(m, 'no idea', {})).toEqual({ score: 0 });
    expect(await runMetric(m, null, {})).toEqual({ score: 0 });
  });
  it('fullMatch anchors the whole answer', async () => {
    const m = regexMatch({ pattern: '\\d+|none', fullMatch: true });
    expect(await runMetric(m, '42', {})).toEqual({ score: 1 });
    expect(await runMetric(m, 'x42', {})).toEqual({ score: 0 });
    expect(await runMetric(m, 'none', {})).toEqual({ score: 1 });
  });
  it('reads the pattern from reference.pattern by default', async () => {
    expect(await runMetric(regexMatch(), 'abc123', { pattern: '[a-z]+\\d+' })).toEqual({ score: 1 });
    await expect(runMetric(regexMatch(), 'x', { pattern: '(' })).rejects.toThrow(SyntaxError);
    await expect(runMetric(regexMatch(), 'x', { pattern: 3 })).rejects.toThrow(/string pattern/);
  });
  it('refuses an invalid options pattern or flag at construction', () => {
    expect(() => regexMatch({ pattern: '(' })).toThrow(SyntaxError);
    expect(() => regexMatch({ pattern: 'a', flags: 'g' })).toThrow(/flags/);
  });
});
