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
    const lines = formatAggregateTable({
      scores: { scores },
      metric_coverage: {},
    } as unknown as AggregateTableInput);
    expect(lines).toHaveLength(2 + 200_000);
    expect(lines[2 + 199_999]).toBe('m.reward.pass@200000   1.0      -          0');
  });
});
