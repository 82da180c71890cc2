import { describe, expect, it } from 'vitest';
import { type ReportBundle, reportModelOfBundle } from '../../src/report/write-report.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { makeScore, makeTrial } from './fixtures/make-trial.js';
import { smallRun } from './fixtures/small-run.js';
import { sparseFailedRun } from './fixtures/sparse-failed-run.js';

const sparseModel = await reportModelOfBundle(sparseFailedRun());
const smallModel = await reportModelOfBundle(smallRun());

const T975_3 = 3.18244630528371; // t(0.975, 3), from tables

function sampleSd(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

describe('reportModelOfBundle on the sparse/failed run (spec §9 plus a failing task)', () => {
  const { data, trialDetails, taskDetails } = sparseModel;

  it('counts tasks, trials, scores and errors by type', () => {
    expect(data.counts).toEqual({
      tasks: 2,
      trials: 5,
      scores: 5,
      errors: 2,
      errorsByType: [
        ['TimeoutError', 1],
        ['ToolCrash', 1],
      ],
      trialStatus: { completed: 3, partial: 1, failed: 1 },
      scoreStatus: { completed: 3, partial: 0, failed: 2 },
      diagnostics: 0,
      diagnosticsByCode: [],
    });
    expect(data.run).toEqual({
      id: 'agent-eval-20260715093012-1a2b3c4d',
      target: { name: 'harbor', kind: 'runner', version: null },
      labels: [
        ['benchmark', 'demo'],
        ['split', 'dev'],
      ],
      startedAt: '2026-07-15T09:30:12Z',
      finishedAt: '2026-07-15T09:31:00Z',
      durationSec: 48,
      sdkVersion: 'x.y.z',
    });
  });

  it('classifies every aggregate row and attaches coverage', () => {
    expect(data.aggregates.map((a) => [a.name, a.kind, a.key, a.k])).toEqual([
      ['harbor_reward.format_ok', 'output', 'harbor_reward.format_ok', null],
      ['harbor_reward.reward', 'output', 'harbor_reward.reward', null],
      ['view.format_quality', 'view', null, null],
      ['harbor_reward.format_ok.pass@1', 'pass@k', 'harbor_reward.format_ok', 1],
      ['harbor_reward.format_ok.pass@2', 'pass@k', 'harbor_reward.format_ok', 2],
      ['harbor_reward.format_ok.pass@3', 'pass@k', 'harbor_reward.format_ok', 3],
      ['harbor_reward.reward.pass@1', 'pass@k', 'harbor_reward.reward', 1],
      ['harbor_reward.reward.pass@2', 'pass@k', 'harbor_reward.reward', 2],
      ['harbor_reward.reward.pass@3', 'pass@k', 'harbor_reward.reward', 3],
    ]);
    // format_ok: a1 1.0 scored, a2 omitted (missing), b1 dead trial + b2 metric failure (failed), b3 0.0
    const formatOk = data.aggregates[0];
    expect(formatOk).toMatchObject({ mean: 0.5, count: 2, nanCount: 3, min: 0, max: 1 });
    expect(formatOk?.coverage).toEqual({ total: 5, scored: 2, failed: 2, missing: 1 });
    // reward: 1, 0, 0.5 measured
    expect(data.aggregates[1]).toMatchObject({ mean: 0.5, count: 3, nanCount: 2 });
    expect(data.aggregates[2]).toMatchObject({ mean: 1, count: 1, nanCount: 1, coverage: null });
    // two tasks only: no interval anywhere
    expect(data.aggregates.every((a) => a.ci === null)).toBe(true);
  });

  it('builds plot series from the per-task values', () => {
    const [formatOk, reward] = data.outputs;
    expect(reward).toMatchObject({ key: 'harbor_reward.reward', kind: 'continuous', scoreLike: true });
    expect(reward?.histogram?.counts).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    // A: (1 + 0)/2, B: 0.5 (the dead trial and the metric failure have no value) → tie, by task id
    expect(reward?.taskMeans).toEqual({ task: [0, 1], mean: [0.5, 0.5] });
    expect(formatOk?.taskMeans).toEqual({ task: [1, 0], mean: [0, 1] });
    expect(formatOk?.passAtK).toEqual([
      { k: 1, mean: 0.5, count: 2, nanCount: 0 },
      { k: 2, mean: 0, count: 1, nanCount: 1 },
      { k: 3, mean: null, count: 0, nanCount: 2 },
    ]);
  });

  it('stores trials as columns aligned with the score columns', () => {
    expect(data.tasks).toEqual({ id: ['A', 'B'], trialCount: [2, 3], decl: [0, 0] });
    expect(data.declSets).toEqual([[0, 1]]);
    expect(data.trials).toEqual({
      taskRuns: [0, 2, 1, 3],
      id: ['a1', 'a2', 'b1', 'b2', 'b3'],
      status: 'ccfpc',
      errorRows: [2, 3],
      errorOfRow: [0, 1],
      errorTypes: ['TimeoutError', 'ToolCrash'],
      diagnosticRows: [],
      diagnosticCount: [],
      diagnosticText: [],
    });
    expect(data.metricTypes).toEqual(['harbor_reward']);
    expect(data.scoreStatus).toEqual(['ccffc']);
    expect(data.values).toEqual([
      [1, null, null, null, 0],
      [1, 0, null, null, 0.5],
    ]);
  });

  it('keeps details compact: column-derivable scores become metric-type indexes', () => {
    expect(trialDetails[0]).toEqual({
      scores: [0],
      output: { text: 'answer of a1' },
      measurements: [80, 40, 120, null, null, 4.5, null],
    });
    expect(trialDetails[2]).toEqual({
      scores: [
        {
          type: 'harbor_reward',
          status: 'failed',
          outputs: [],
          diagnostics: [
            {
              severity: 'error',
              message: "trial 'b1' is failed",
              source: 'harbor_reward',
              details: { trial_status: 'failed' },
            },
          ],
        },
      ],
      error: {
        type: 'TimeoutError',
        message: 'agent timed out after 600 s',
        traceback: 'Traceback (most recent call last): ...',
        occurredAt: '2026-07-15T09:40:00Z',
      },
    });
    expect(taskDetails[0]).toMatchObject({
      intent: 'Fix the failing test',
      views: [['format_quality', 'single', ['harbor_reward.format_ok']]],
      metrics: [
        [
          'harbor_reward',
          [
            ['format_ok', 'ContinuousScore', false],
            ['reward', 'ContinuousScore', true],
          ],
        ],
      ],
    });
    expect(data.detail).toEqual({ chunkSize: 500, chunks: 1, rows: data.trials.id.map((_, i) => i) });
  });
});

describe('reportModelOfBundle intervals (small run: 4 tasks × 3 trials)', () => {
  const { data } = smallModel;
  const byName = new Map(data.aggregates.map((a) => [a.name, a]));

  it('uses Student-t over per-task means for balanced tasks (quality 1–5)', () => {
    // quality per trial = 1 + round(4 · reward) → task means 5, 3, 7/3, 4/3
    const means = [5, 3, 7 / 3, 4 / 3];
    const mean = means.reduce((a, b) => a + b, 0) / 4;
    const half = (T975_3 * sampleSd(means)) / 2;
    const ci = byName.get('llm_judge.quality')?.ci;
    expect(byName.get('llm_judge.quality')?.mean).toBeCloseTo(35 / 12, 12);
    expect(ci?.lo).toBeCloseTo(mean - half, 7);
    expect(ci?.hi).toBeCloseTo(mean + half, 7);
    expect(ci?.method).toBe('Student-t, standard error clustered by task (CR1), 4 tasks, df=3');
  });

  it('clips intervals of [0, 1] metrics and says so; pass@k uses the per-task estimates', () => {
    // pass@1 estimates per task: 3/3, 1/3, 1/3, 0/3
    const estimates = [1, 1 / 3, 1 / 3, 0];
    const half = (T975_3 * sampleSd(estimates)) / 2;
    const row = byName.get('harbor_reward.reward.pass@1');
    expect(row?.mean).toBeCloseTo(5 / 12, 12);
    expect(5 / 12 - half).toBeLessThan(0);
    expect(5 / 12 + half).toBeGreaterThan(1);
    expect(row?.ci).toEqual({
      lo: 0,
      hi: 1,
      method: 'Student-t over 4 per-task estimates, df=3; clipped to [0, 1]',
    });
  });

  it('shows no mean for booleans and labels but counts their values', () => {
    expect(byName.get('harbor_reward.passed')).toMatchObject({
      mean: null,
      count: 0,
      nanCount: 12,
      ci: null,
    });
    const verdict = data.outputs.find((o) => o.key === 'llm_judge.verdict');
    expect(verdict?.valueCounts).toEqual([
      ['correct', 5],
      ['wrong', 5],
      ['partial', 2],
    ]);
    expect(verdict?.histogram).toBeNull();
    const passed = data.outputs.find((o) => o.key === 'harbor_reward.passed');
    expect(passed?.valueCounts).toEqual([
      ['false', 7],
      ['true', 5],
    ]);
    // booleans project to 0/1 for the per-task strip
    expect(passed?.taskMeans.mean).toEqual([0, 0.333333, 0.333333, 1]);
  });
});

describe('reportModelOfBundle row matching', () => {
  it('pairs duplicate trial ids by occurrence and gives score-only trials their own row', async () => {
    const run = 'r';
    const trials = [makeTrial('T', 't1', 'completed'), makeTrial('T', 't1', 'failed')];
    const scores = [
      makeScore(run, 'T', 't1', 'm', [{ name: 'v', value: 1 }]),
      makeScore(run, 'T', 't1', 'm', [{ name: 'v', value: 0.25 }]),
      makeScore(run, 'T', 't1', 'm', [{ name: 'v', value: 0.5 }]),
      makeScore(run, 'T', 'ghost', 'm', [{ name: 'v', value: 0 }]),
      makeScore(run, 'U', 'u1', 'm', [
        { name: 'v', value: NaN },
        { name: 'extra', value: 'lbl' },
      ]),
    ];
    const bundle: ReportBundle = {
      runId: run,
      metadata: null,
      tasks: [],
      trials,
      scores,
      summary: buildSummary({ scores, trials }),
    };
    const { data, trialDetails } = await reportModelOfBundle(bundle);
    expect(data.trials.id).toEqual(['t1', 't1', 'ghost', 'u1']);
    expect(data.trials.status).toBe('cf??');
    expect(data.tasks.id).toEqual(['T', 'U']);
    expect(data.tasks.decl).toEqual([-1, -1]);
    expect(data.outputs.map((o) => [o.key, o.kind])).toEqual([
      ['m.extra', 'unknown'],
      ['m.v', 'unknown'],
    ]);
    expect(data.values[1]).toEqual([1, 0.25, 0, { $nf: 'NaN' }]);
    expect(data.values[0]).toEqual([null, null, null, 'lbl']);
    // the third score of t1 stays on the last t1 record, as a full object
    expect(trialDetails[1]?.scores).toEqual([0, { type: 'm', status: 'completed', outputs: [['v', 0.5]] }]);
    expect(data.run).toEqual({
      id: 'r',
      target: null,
      labels: [],
      startedAt: null,
      finishedAt: null,
      durationSec: null,
      sdkVersion: null,
    });
  });
});
