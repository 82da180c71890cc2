import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { summaryScore } from '../../src/summary/summary-accessors.js';
import { deadTrial, metric, metricFailed, score, task, view } from './fixtures.js';

describe('§7.1 applicability, with task specs', () => {
  // A and B both run metric m, but only A declares `extra`.
  const tasks = [
    task('A', [metric('m', { reward: 'continuous', extra: ['continuous', false] })]),
    task('B', [metric('m', { reward: 'continuous' })], { v: view('single', ['m', 'extra']) }),
  ];
  const scores = [
    score('A', 'a1', 'm', { reward: 1, extra: 0.5 }),
    score('A', 'a2', 'm', { reward: 0 }),
    score('B', 'b1', 'm', { reward: 1, extra: 0.25, undeclared: 7 }),
    score('B', 'b2', 'm', { reward: 1 }),
    score('Z', 'z1', 'm', { reward: 0 }), // task not in the list
    score('A', 'a1', 'other', { reward: 0 }), // metric the task does not list
  ];
  const summary = buildSummary({ scores, tasks });

  it("a task that does not declare an output is outside that output's aggregate and coverage", () => {
    expect(summaryScore(summary, 'm.extra')).toMatchObject({ count: 1, nan_count: 1, mean: 0.5 });
    expect(summary.metric_coverage['m']?.['extra']).toEqual({ total: 2, scored: 1, failed: 0, missing: 1 });
  });

  it('…and outside its task values, views and pass@k', () => {
    expect(Object.keys(summary.task_metric_values['B'] ?? {})).toEqual(['m.reward']);
    // B's view names an output B does not declare: never measured, but B's trials are its opportunities.
    expect(summaryScore(summary, 'view.v')).toMatchObject({ count: 0, nan_count: 2 });
    // pass@k for m.extra: only A declares it (n=1: a2 omitted it).
    expect(summaryScore(summary, 'm.extra.pass@1')).toMatchObject({ count: 1, nan_count: 0, mean: 0 });
  });

  it('undeclared names, unknown tasks and unlisted metrics contribute nothing (but are counted)', () => {
    expect(
      summary.scores.scores.some((s) => s.name.includes('undeclared') || s.name.startsWith('other.')),
    ).toBe(false);
    expect(summaryScore(summary, 'm.reward')).toMatchObject({ count: 4, nan_count: 0, mean: 0.75 });
    expect(summary.metric_coverage['m']?.['reward']?.total).toBe(4);
    expect(Object.keys(summary.metric_coverage)).toEqual(['m']);
    expect(Object.keys(summary.task_metric_values)).toEqual(['A', 'B']);
    expect(summary).toMatchObject({ task_count: 2, score_count: 6, trial_count: 5 });
  });
});

describe('§7.1 applicability, without task specs', () => {
  it('names = union of emitted names per metric type; every score (failed too) is an observation of each', () => {
    const summary = buildSummary({
      scores: [
        score('A', 'a1', 'm', { x: 1 }),
        score('B', 'b1', 'm', { y: 2 }),
        metricFailed('B', 'b2', 'm'),
        deadTrial('A', 'a3', 'm'),
      ],
    });
    expect(summary.scores.scores.map((s) => [s.name, s.count, s.nan_count])).toEqual([
      ['m.x', 1, 3],
      ['m.y', 1, 3],
    ]);
    expect(summary.metric_coverage).toEqual({
      m: {
        x: { total: 4, scored: 1, failed: 2, missing: 1 },
        y: { total: 4, scored: 1, failed: 2, missing: 1 },
      },
    });
    expect(summary.task_count).toBe(2);
  });

  it('no views and no pass@k rows without task specs', () => {
    const summary = buildSummary({ scores: [score('A', 'a1', 'm', { reward: 1 })] });
    expect(summary.scores.scores.map((s) => s.name)).toEqual(['m.reward']);
  });
});
