import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { summaryScore } from '../../src/summary/summary-accessors.js';
import { metric, score, task, view } from './fixtures.js';

// Spec §9 / "Reading Results" sparse-output example.
const tasks = [
  task('A', [metric('harbor_reward', { reward: 'continuous', format_ok: ['continuous', false] })], {
    format_quality: view('single', ['harbor_reward', 'format_ok']),
  }),
];
const scores = [
  score('A', 'a1', 'harbor_reward', { reward: 1.0, format_ok: 1.0 }),
  score('A', 'a2', 'harbor_reward', { reward: 0.0 }),
];
const summary = buildSummary({ scores, tasks });
const row = (name: string) => summaryScore(summary, name);

describe('§9 worked example', () => {
  it('emits outputs, then the view, then pass@k rows, in that order', () => {
    expect(summary.scores.scores.map((s) => s.name)).toEqual([
      'harbor_reward.format_ok',
      'harbor_reward.reward',
      'view.format_quality',
      'harbor_reward.format_ok.pass@1',
      'harbor_reward.format_ok.pass@2',
      'harbor_reward.reward.pass@1',
      'harbor_reward.reward.pass@2',
    ]);
    expect(summary.scores.scores.every((s) => s.score_type === 'range')).toBe(true);
  });

  it('harbor_reward.format_ok: count 1, nan_count 1, mean 1.0, std_dev 0.0, sample_* null', () => {
    expect(row('harbor_reward.format_ok')).toMatchObject({
      count: 1,
      nan_count: 1,
      mean: 1,
      std_dev: 0,
      sample_std_dev: null,
      sample_variance: null,
    });
  });

  it('harbor_reward.reward: count 2, mean 0.5, std 0.5, var 0.25, sample 0.7071…/0.5, percentiles', () => {
    const r = row('harbor_reward.reward');
    expect(r).toMatchObject({
      count: 2,
      nan_count: 0,
      sum: 1,
      mean: 0.5,
      min: 0,
      max: 1,
      std_dev: 0.5,
      variance: 0.25,
      sample_variance: 0.5,
      median: 0.5,
      histogram: null,
    });
    expect(r.sample_std_dev).toBeCloseTo(0.70710678, 8);
    if (r.score_type !== 'range') throw new Error('range expected');
    const p = r.percentiles;
    expect([p?.p10, p?.p20, p?.p30]).toEqual([0, 0, 0]);
    expect(p?.p40).toBeCloseTo(0.2, 12);
    expect(p?.p50).toBe(0.5);
    expect(p?.p60).toBeCloseTo(0.8, 12);
    expect([p?.p70, p?.p80, p?.p90, p?.p100]).toEqual([1, 1, 1, 1]);
  });

  it('view.format_quality: only a1 contributes (count 1, nan_count 1, mean 1.0)', () => {
    expect(row('view.format_quality')).toMatchObject({ count: 1, nan_count: 1, mean: 1 });
  });

  it('pass@k rows: format_ok n=1 estimates k=1 only; reward 0.5 then 1.0', () => {
    expect(row('harbor_reward.format_ok.pass@1')).toMatchObject({ count: 1, nan_count: 0, mean: 1 });
    expect(row('harbor_reward.format_ok.pass@2')).toMatchObject({ count: 0, nan_count: 1, mean: null });
    expect(row('harbor_reward.reward.pass@1')).toMatchObject({ count: 1, nan_count: 0, mean: 0.5 });
    expect(row('harbor_reward.reward.pass@2')).toMatchObject({ count: 1, nan_count: 0, mean: 1 });
  });

  it('coverage: reward fully scored, format_ok one missing', () => {
    expect(summary.metric_coverage).toEqual({
      harbor_reward: {
        format_ok: { total: 2, scored: 1, failed: 0, missing: 1 },
        reward: { total: 2, scored: 2, failed: 0, missing: 0 },
      },
    });
  });

  it('task values: format_ok [(a1, 1.0)], reward [(a1, 1.0), (a2, 0.0)]', () => {
    expect(summary.task_metric_values).toEqual({
      A: {
        'harbor_reward.format_ok': [{ trial_id: 'a1', value_type: 'number', value: 1 }],
        'harbor_reward.reward': [
          { trial_id: 'a1', value_type: 'number', value: 1 },
          { trial_id: 'a2', value_type: 'number', value: 0 },
        ],
      },
    });
  });

  it('counts', () => {
    expect(summary).toMatchObject({
      task_count: 1,
      trial_count: 2,
      score_count: 2,
      error_trial_ids: {},
      error_count: 0,
    });
  });
});
