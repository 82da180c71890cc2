import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleReportWriter } from '../../src/bundle/bundle-report-writer.js';
import { CandidateEvidence } from '../../src/evidence/candidate-evidence.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { Trial } from '../../src/model/trial.js';
import { reportModelOfBundle } from '../../src/report/write-report.js';
import { reportWriterFor } from '../../src/report/report-writer-for.js';
import { toRunBundle } from '../../src/sinks/to-run-bundle.js';
import { bigRun } from './fixtures/big-run.js';
import { makeScore, makeTrial } from './fixtures/make-trial.js';
import { readEmbedded } from './fixtures/read-embedded.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'evalstream-selection-'));

const atif = (id: string): unknown => ({
  schema_version: 'ATIF-v1.4',
  session_id: id,
  agent: { name: 'a', version: '1' },
  steps: [{ step_id: 1, source: 'agent', message: `work of ${id}` }],
});

describe('the bounded selection of trial details', () => {
  it('keeps every failed trial up to the cap, then a fixed-size sample, whatever the run size', async () => {
    // 400 tasks × 10 trials: 80 dead trials (every 50th)
    const bundle = bigRun(400, 10);
    const { data, trialDetails } = await reportModelOfBundle(bundle, {
      maxFailedTrials: 50,
      sampleTrials: 30,
    });
    expect(data.trials.id).toHaveLength(4000);
    expect(data.detail.rows).toHaveLength(80);
    expect(trialDetails).toHaveLength(80);
    const failedRows = data.detail.rows.filter((row) => data.trials.status[row] === 'f');
    // the first 50 dead trials in arrival order
    const deadRows = [...data.trials.status].flatMap((s, row) => (s === 'f' ? [row] : []));
    expect(failedRows).toEqual(deadRows.slice(0, 50));
    expect(trialDetails.filter((d) => d.error?.type === 'TimeoutError')).toHaveLength(50);
    expect(data.selection.rule).toMatch(/every failed or errored trial up to 50.*sample of 30/);
    expect(data.selection.howToGetTheRest).toMatch(/evalstream inspect/);
    expect(data.selection.howToGetTheRest).toMatch(/evalstream query/);

    // the same bounds for a run five times larger
    const larger = await reportModelOfBundle(bigRun(2000, 10), { maxFailedTrials: 50, sampleTrials: 30 });
    expect(larger.data.trials.id).toHaveLength(20_000);
    expect(larger.data.detail.rows).toHaveLength(80);
  });

  it('samples the same trials whatever the order they arrive in', async () => {
    const bundle = bigRun(300, 10);
    const sampled = async (trials: readonly Trial[]): Promise<string[]> => {
      const { data } = await reportModelOfBundle(
        { ...bundle, trials },
        { maxFailedTrials: 0, sampleTrials: 25 },
      );
      return data.detail.rows.map((row) => data.trials.id[row] as string).sort();
    };
    const forward = await sampled(bundle.trials);
    expect(forward).toHaveLength(25);
    expect(await sampled([...bundle.trials].reverse())).toEqual(forward);
  });

  it('keeps the trajectory read while the trial passed, with no input file opened at the end', async () => {
    const inputs = tmp();
    const out = join(tmp(), 'bundle');
    const sink = toRunBundle(out, { runId: 'r1', reportWriter: bundleReportWriter });
    for (const [i, status] of (['completed', 'failed', 'completed'] as const).entries()) {
      const file = join(inputs, `t${i}.json`);
      writeFileSync(file, JSON.stringify(atif(`t${i}`)));
      const trial = makeTrial('T', `t${i}`, status);
      trial.evidence = {
        descriptors: {
          trace: { kind: 'trace', format: 'atif', ref: file, data: null, description: null, metadata: {} },
        },
        metadata: {},
      };
      const scored: ScoredTrial = {
        item: {
          trial,
          evidence: new CandidateEvidence(trial.evidence, { baseDir: inputs }),
          task: null,
          origin: { file },
        },
        scores: [
          makeScore(
            'r1',
            'T',
            `t${i}`,
            'm',
            [{ name: 'v', value: i }],
            status === 'failed' ? 'failed' : 'completed',
          ),
        ],
        task: { id: 'T', intent: 'demo', inputs: {}, reference: {}, metrics: [], views: {}, metadata: {} },
      };
      await sink.write(scored);
    }
    // the inputs are gone before the bundle and its report are finished
    rmSync(inputs, { recursive: true });
    await sink.shutdown();
    const { data, trials } = readEmbedded(readFileSync(join(out, 'report.html'), 'utf8'));
    expect(data.trials.id).toEqual(['t0', 't1', 't2']);
    expect(trials.map((t) => t?.trajectory?.steps[0]?.message)).toEqual([
      'work of t0',
      'work of t1',
      'work of t2',
    ]);
    expect(data.selection).toMatchObject({ trajectoriesKept: 3, trajectoriesTotal: 3 });
  });

  it('rebuilds a bundle’s report with the same bounds, from its files and its summary', async () => {
    const dir = join(tmp(), 'bundle');
    const bundle = bigRun(100, 10);
    const sink = toRunBundle(dir, { runId: bundle.runId, tasks: bundle.tasks });
    for (const trial of bundle.trials) {
      await sink.write({
        item: { trial, evidence: null, task: null, origin: { file: 'memory' } },
        scores: bundle.scores.filter((s) => s.trial_id === trial.id),
        task: bundle.tasks.find((t) => t.id === trial.task_id)!,
      });
    }
    await sink.shutdown();
    const result = await reportWriterFor(dir, { maxFailedTrials: 5, sampleTrials: 7 });
    const { data } = readEmbedded(readFileSync(result!.path, 'utf8'));
    expect(data.trials.id).toHaveLength(1000);
    expect(data.detail.rows).toHaveLength(12);
    expect(data.counts.trials).toBe(1000);
    const direct = await reportModelOfBundle(bundle, { maxFailedTrials: 5, sampleTrials: 7 });
    expect(data.aggregates).toEqual(direct.data.aggregates);
    expect(data.values).toEqual(direct.data.values);
    expect(data.detail.rows).toEqual(direct.data.detail.rows);
  });
});
