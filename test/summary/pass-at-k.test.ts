import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { passAtKScores } from '../../src/summary/pass-at-k-scores.js';
import { summaryScore } from '../../src/summary/summary-accessors.js';
import type { MetricDescriptor } from '../../src/model/task.js';
import { deadTrial, metric, metricFailed, score, task } from './fixtures.js';

const reward = metric('m', { reward: 'continuous' });
const rows = (summary: ReturnType<typeof buildSummary>, prefix: string) =>
  summary.scores.scores.filter((s) => s.name.startsWith(`${prefix}.pass@`));

describe('§7.6 pass@k', () => {
  it('only continuous and boolean outputs get pass@k; not discrete, label, model', () => {
    const m: MetricDescriptor = metric('m', {
      c: 'continuous',
      b: 'boolean',
      d: 'discrete',
      l: 'label',
      x: 'model',
    });
    const summary = buildSummary({
      tasks: [task('A', [m])],
      scores: [score('A', 'a1', 'm', { c: 1, b: true, d: 1, l: 'y', x: 1 })],
    });
    expect(summary.scores.scores.filter((s) => s.name.includes('.pass@')).map((s) => s.name)).toEqual([
      'm.b.pass@1',
      'm.c.pass@1',
    ]);
    expect(summaryScore(summary, 'm.b.pass@1').mean).toBe(1); // a boolean passes when true
  });

  it('macro pass rate: t1 [1, 0] and t2 [1, 1] → pass@1 0.75, pass@2 1.0', () => {
    const summary = buildSummary({
      tasks: [task('t1', [reward]), task('t2', [reward])],
      scores: [
        score('t1', 'a0', 'm', { reward: 1 }),
        score('t1', 'a1', 'm', { reward: 0 }),
        score('t2', 'a0', 'm', { reward: 1 }),
        score('t2', 'a1', 'm', { reward: 1 }),
      ],
    });
    expect(rows(summary, 'm.reward').map((r) => [r.name, r.mean, r.count, r.nan_count])).toEqual([
      ['m.reward.pass@1', 0.75, 2, 0],
      ['m.reward.pass@2', 1, 2, 0],
    ]);
  });

  it('one task of 140,000 trials: a pass@k row for every k (more rows than a spread push takes)', () => {
    const n = 140_000;
    const summary = buildSummary({
      tasks: [task('A', [reward])],
      // one pass among them: pass@k = k / n
      scores: Array.from({ length: n }, (_, i) => score('A', `a${i}`, 'm', { reward: i === 0 ? 1 : 0 })),
    });
    const passAt = rows(summary, 'm.reward');
    expect(passAt).toHaveLength(n);
    expect([passAt[0]?.name, passAt[n - 1]?.name]).toEqual(['m.reward.pass@1', `m.reward.pass@${n}`]);
    expect(passAt[0]?.mean).toBeCloseTo(1 / n, 15);
    expect(passAt[n - 1]?.mean).toBe(1);
  });

  it('partial credit is not a pass (threshold 1.0); NaN counts in n as a non-pass; +Infinity passes', () => {
    const summary = buildSummary({
      tasks: [task('A', [reward])],
      scores: [
        score('A', 'a0', 'm', { reward: 0.99 }),
        score('A', 'a1', 'm', { reward: NaN }),
        score('A', 'a2', 'm', { reward: Infinity }),
      ],
    });
    // n = 3, c = 1
    expect(summaryScore(summary, 'm.reward.pass@1').mean).toBe(1 - (1 - 1 / 3));
  });

  it('a dead trial counts in n as a non-pass; a metric failure, omitted optional or label is not counted', () => {
    const m = metric('m', { reward: ['continuous', false] });
    const summary = buildSummary({
      tasks: [task('A', [m])],
      scores: [
        score('A', 'a0', 'm', { reward: 1 }),
        deadTrial('A', 'a1', 'm'),
        metricFailed('A', 'a2', 'm'),
        score('A', 'a3', 'm', {}),
        score('A', 'a4', 'm', { reward: 'n/a' }),
      ],
    });
    // n = 2 (a0, a1), c = 1; K = 5 opportunities → rows pass@1..pass@5, estimable for k ≤ 2 only
    expect(rows(summary, 'm.reward').map((r) => [r.count, r.nan_count, r.mean])).toEqual([
      [1, 0, 0.5],
      [1, 0, 1],
      [0, 1, null],
      [0, 1, null],
      [0, 1, null],
    ]);
  });

  it('K = largest number of score records of any declaring task; tasks short of k trials are in nan_count', () => {
    const summary = buildSummary({
      tasks: [task('t1', [reward]), task('t2', [reward])],
      scores: [
        score('t1', 'a0', 'm', { reward: 1 }),
        metricFailed('t1', 'a1', 'm'),
        score('t2', 'a0', 'm', { reward: 1 }),
        score('t2', 'a1', 'm', { reward: 0 }),
      ],
    });
    // t1 n=1 → pass@1 1.0; t2 n=2 → 0.5, 1.0
    expect(rows(summary, 'm.reward').map((r) => [r.count, r.nan_count, r.mean])).toEqual([
      [2, 0, 0.75],
      [1, 1, 1],
    ]);
  });

  it('a declaring task with no trials (empty list) is unmeasured at every k', () => {
    const summary = buildSummary({
      tasks: [task('t1', [reward]), task('t2', [reward])],
      scores: [score('t1', 'a0', 'm', { reward: 1 }), score('t1', 'a1', 'm', { reward: 1 })],
    });
    expect(summary.task_metric_values['t2']).toEqual({ 'm.reward': [] });
    expect(rows(summary, 'm.reward').map((r) => [r.count, r.nan_count, r.mean])).toEqual([
      [1, 1, 1],
      [1, 1, 1],
    ]);
  });

  it('rows are kept when no task is estimable (all optional values omitted)', () => {
    const m = metric('m', { opt: ['continuous', false] });
    const summary = buildSummary({
      tasks: [task('A', [m])],
      scores: [score('A', 'a0', 'm', {}), score('A', 'a1', 'm', {})],
    });
    expect(rows(summary, 'm.opt').map((r) => [r.name, r.count, r.nan_count, r.mean])).toEqual([
      ['m.opt.pass@1', 0, 1, null],
      ['m.opt.pass@2', 0, 1, null],
    ]);
  });

  it('pairs are sorted by (type, output), k ascending numerically (pass@10 after pass@9)', () => {
    const scores = Array.from({ length: 10 }, (_, i) => score('A', `a${i}`, 'm', { reward: i % 2 }));
    const names = rows(buildSummary({ tasks: [task('A', [reward])], scores }), 'm.reward').map((r) => r.name);
    expect(names.slice(8)).toEqual(['m.reward.pass@9', 'm.reward.pass@10']);
  });

  it('passAtKScores: no declaring task with a score → no rows', () => {
    expect(passAtKScores('m.reward', [])).toEqual([]);
    expect(passAtKScores('m.reward', [{ n: 0, c: 0, opportunities: 0 }])).toEqual([]);
  });
});
