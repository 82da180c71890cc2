import { describe, expect, it } from 'vitest';
import { formatAggregateTable } from '../../src/summary/format-aggregate-table.js';
import type { AggregateTableInput } from '../../src/summary/format-aggregate-table.js';

describe('formatAggregateTable', () => {
  it('prints name, mean, count, nan_count and coverage aligned, in summary order', () => {
    const summary = {
      scores: {
        scores: [
          { name: 'judge.reward', score_type: 'continuous', mean: 0.75, count: 4, nan_count: 1 },
          { name: 'judge.passed', score_type: 'boolean', mean: 1, count: 2, nan_count: 0 },
          { name: 'pass@2', score_type: 'scalar', value: 0.5, count: null, nan_count: 0 },
        ],
      },
      metric_coverage: {
        judge: {
          reward: { scored: 5, missing: 1, failed: 0, total: 6 },
          passed: { scored: 2, missing: 4, failed: 0, total: 6 },
        },
      },
    } as unknown as AggregateTableInput;
    expect(formatAggregateTable(summary)).toEqual([
      'name          mean  count  nan_count  coverage',
      '------------  ----  -----  ---------  --------',
      'judge.reward  0.75      4          1       5/6',
      'judge.passed   1.0      2          0       2/6',
      'pass@2         0.5      -          0',
    ]);
  });

  it('says so when there are no aggregates', () => {
    expect(
      formatAggregateTable({ scores: { scores: [] }, metric_coverage: {} } as unknown as AggregateTableInput),
    ).toEqual(['(no aggregates)']);
  });

  it('prints more rows than Math.max takes as arguments (pass@k of a task with 200,000 trials)', () => {
    const scores = Array.from({ length: 200_000 }, (_, i) => ({
      name: `m.reward.pass@${i + 1}`,
      score_type: 'scalar',
      value: 1,
      count: null,
      nan_count: 0,
    }));
    const lines = formatAggregateTable(
      {
        scores: { scores },
        metric_coverage: {},
      } as unknown as AggregateTableInput,
      { allPassAtK: true },
    );
    expect(lines).toHaveLength(2 + 200_000);
    expect(lines[2 + 199_999]).toBe('m.reward.pass@200000   1.0      -          0');
  });

  it('prints k = 1, 2, 4, 8, … and the largest k of each pass@k series, and counts the rest', () => {
    const series = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `${prefix}pass@${i + 1}`,
        score_type: 'scalar',
        value: 1,
        count: null,
        nan_count: 0,
      }));
    const scores = [
      { name: 'judge.reward', score_type: 'continuous', mean: 0.5, count: 4, nan_count: 0 },
      ...series('judge.reward.', 12),
      ...series('judge.passed.', 3),
      ...series('', 5),
    ];
    const lines = formatAggregateTable({
      scores: { scores },
      metric_coverage: {},
    } as unknown as AggregateTableInput);
    expect(lines.slice(2).map((l) => l.split(' ')[0])).toEqual([
      'judge.reward',
      'judge.reward.pass@1',
      'judge.reward.pass@2',
      'judge.reward.pass@4',
      'judge.reward.pass@8',
      'judge.reward.pass@12',
      'judge.passed.pass@1',
      'judge.passed.pass@2',
      'judge.passed.pass@3',
      'pass@1',
      'pass@2',
      'pass@4',
      'pass@5',
      '(8',
    ]);
    expect(lines[lines.length - 1]).toBe('(8 more pass@k rows, for other k: all are in summary.json)');
  });
});
