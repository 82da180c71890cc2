import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { summaryScore } from '../../src/summary/summary-accessors.js';
import { deadTrial, metric, metricFailed, score, task } from './fixtures.js';

describe('§7.2 per-output aggregates', () => {
  it('a declared output that is never emitted still has a row: count 0, nan_count total, stats null', () => {
    const summary = buildSummary({
      scores: [score('A', 'a1', 'm', { r: 1 }), score('A', 'a2', 'm', { r: 0 })],
      tasks: [task('A', [metric('m', { r: 'continuous', opt: ['continuous', false] })])],
    });
    expect(summaryScore(summary, 'm.opt')).toEqual({
      name: 'm.opt',
      count: 0,
      nan_count: 2,
      sum: null,
      mean: null,
      min: null,
      max: null,
      median: null,
      std_dev: null,
      variance: null,
      sample_std_dev: null,
      sample_variance: null,
      score_type: 'range',
      percentiles: null,
      histogram: null,
    });
  });

  it('booleans and labels are not collected (count 0) — everything lands in nan_count', () => {
    const tasks = [task('A', [metric('m', { ok: 'boolean', verdict: 'label' })])];
    const summary = buildSummary({
      tasks,
      scores: [
        score('A', 'a1', 'm', { ok: true, verdict: 'good' }),
        score('A', 'a2', 'm', { ok: false, verdict: 'bad' }),
      ],
    });
    expect(summaryScore(summary, 'm.ok')).toMatchObject({ count: 0, nan_count: 2, mean: null });
    expect(summaryScore(summary, 'm.verdict')).toMatchObject({ count: 0, nan_count: 2, mean: null });
  });

  it('discrete ints average normally; a model output counts only when the metric returned a plain number', () => {
    const tasks = [task('A', [metric('m', { steps: 'discrete', usage: 'model' })])];
    const summary = buildSummary({
      tasks,
      scores: [
        score('A', 'a1', 'm', { steps: 3, usage: 1200 }),
        score('A', 'a2', 'm', { steps: 4, usage: { prompt: 1300 } }),
      ],
    });
    expect(summaryScore(summary, 'm.steps')).toMatchObject({ count: 2, mean: 3.5, sum: 7 });
    expect(summaryScore(summary, 'm.usage')).toMatchObject({ count: 1, nan_count: 1, mean: 1200 });
  });

  it('NaN/±Infinity, dead trials, metric failures and omitted optionals all land in nan_count', () => {
    const tasks = [task('A', [metric('m', { r: ['continuous', false] })])];
    const summary = buildSummary({
      tasks,
      scores: [
        score('A', 'a1', 'm', { r: 0.5 }),
        score('A', 'a2', 'm', { r: NaN }),
        score('A', 'a3', 'm', { r: Infinity }),
        score('A', 'a4', 'm', { r: -Infinity }),
        deadTrial('A', 'a5', 'm'),
        metricFailed('A', 'a6', 'm'),
        score('A', 'a7', 'm', {}),
      ],
    });
    expect(summaryScore(summary, 'm.r')).toMatchObject({ count: 1, nan_count: 6, mean: 0.5, sum: 0.5 });
  });

  it('partial scores are collected; only the first output of a repeated name counts', () => {
    const tasks = [task('A', [metric('m', { r: 'continuous' })])];
    const summary = buildSummary({
      tasks,
      scores: [
        score(
          'A',
          'a1',
          'm',
          [
            ['r', 0.25],
            ['r', 1],
          ],
          'partial',
        ),
        score('A', 'a2', 'm', { r: 0.75 }),
      ],
    });
    expect(summaryScore(summary, 'm.r')).toMatchObject({ count: 2, sum: 1, mean: 0.5 });
    expect(summary.metric_coverage['m']?.['r']).toEqual({ total: 2, scored: 2, failed: 0, missing: 0 });
    expect(summary.task_metric_values['A']?.['m.r']?.map((r) => r.value)).toEqual([0.25, 0.75]);
  });

  it('sums in SDK score order: tasks in task-list order, then the order scores arrived within a task', () => {
    // CPython 3.12: sum([1e308, 1e308, -1e308]) == inf, sum([1e308, -1e308, 1e308]) == 1e308.
    const scores = [
      score('A', 'a1', 'm', { r: 1e308 }),
      score('B', 'b1', 'm', { r: -1e308 }),
      score('A', 'a2', 'm', { r: 1e308 }),
    ];
    const spec = (id: string) => task(id, [metric('m', { r: 'continuous' })]);
    expect(summaryScore(buildSummary({ scores, tasks: [spec('A'), spec('B')] }), 'm.r').sum).toBe(Infinity);
    expect(summaryScore(buildSummary({ scores, tasks: [spec('B'), spec('A')] }), 'm.r').sum).toBe(1e308);
    // Without task specs, tasks in first-seen order: A (a1, a2), then B.
    expect(summaryScore(buildSummary({ scores }), 'm.r').sum).toBe(Infinity);
  });
});
