import { existsSync } from 'node:fs';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/bundle/read-bundle.js';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import type { Summary } from '../../src/model/summary.js';
import { buildPipeline } from '../../src/pipeline/build-pipeline.js';
import { runPipeline } from '../../src/pipeline/run-pipeline.js';
import { openInputs } from '../../src/sources/open-inputs.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { TaskSpec } from '../../src/model/task.js';
import { toRunBundle } from '../../src/sinks/to-run-bundle.js';
import { bundleReportWriter } from '../../src/bundle/bundle-report-writer.js';
import { reportWriterFor } from '../../src/report/report-writer-for.js';
import { bigRun } from '../report/fixtures/big-run.js';
import { dirTexts, fixturePath, tempDir } from '../bundle/dir-files.js';

const SDK_SPARSE = fixturePath('sdk-sparse');

/** The §9 fixture as the pipeline would hand it to the sink. */
async function scoredTrials(dir: string): Promise<{ tasks: TaskSpec[]; items: ScoredTrial[] }> {
  const bundle = await readBundle(dir);
  const tasks = bundle.tasks ?? [];
  const items = (bundle.trials ?? []).map((trial) => ({
    item: { trial, evidence: null, task: tasks[0] ?? null, origin: { file: 'trials.jsonl' } },
    scores: bundle.scores.filter((s) => s.trial_id === trial.id),
    task: tasks[0] as TaskSpec,
  }));
  return { tasks, items };
}

const fixedClock = (): (() => Date) => {
  let t = Date.parse('2026-07-15T09:30:12Z');
  return () => {
    const d = new Date(t);
    t += 48_250;
    return d;
  };
};

describe('toRunBundle', () => {
  it('writes the SDK bytes for trials, scores, tasks and summary; evidence copied from a root', async () => {
    const { items } = await scoredTrials(SDK_SPARSE);
    const out = join(await tempDir(), 'run');
    const sink = toRunBundle(out, { evidenceRoots: [SDK_SPARSE], clock: fixedClock() });
    for (const item of items) await sink.write(item);
    await sink.shutdown();
    const written = await dirTexts(out);
    const expected = await dirTexts(SDK_SPARSE);
    for (const file of [
      'trials.jsonl',
      'scores.jsonl',
      'tasks.jsonl',
      'summary.json',
      'run.json',
      'evidence/a1/atif.json',
    ]) {
      expect(written[file], file).toBe(expected[file]);
    }
    expect(JSON.parse(written['metadata.json'] as string)).toEqual({
      labels: {},
      target: null,
      started_at: '2026-07-15T09:30:12Z',
      finished_at: '2026-07-15T09:31:00.250000Z',
      duration_sec: 48.25,
      sdk_version: expect.stringMatching(/^evalstream \d+\.\d+\.\d+/) as unknown,
    });
  });

  it('stages everything until shutdown: an earlier bundle in the directory stays intact', async () => {
    const dir = join(await tempDir(), 'run');
    await cp(SDK_SPARSE, dir, { recursive: true });
    const before = await dirTexts(dir);
    const { items } = await scoredTrials(dir);
    const sink = toRunBundle(dir, { clock: fixedClock() });
    await sink.write(items[0] as ScoredTrial);
    await sink.flush();
    const now = await dirTexts(dir);
    // only a staging directory appeared; every bundle file is unchanged
    for (const [file, text] of Object.entries(before)) expect(now[file], file).toBe(text);
    expect((await readdir(dir)).filter((n) => n.startsWith('.evalstream-staging-'))).toHaveLength(1);
    await sink.write(items[1] as ScoredTrial);
    await sink.shutdown();
    await sink.shutdown(); // safe twice
    expect((await readdir(dir)).some((n) => n.startsWith('.evalstream-staging-'))).toBe(false);
    const after = await dirTexts(dir);
    expect(after['scores.jsonl']).toBe(before['scores.jsonl']);
    expect(after['trials.jsonl']).toBe(before['trials.jsonl']); // refs inside the directory stay relative
    await expect(sink.write(items[0] as ScoredTrial)).rejects.toThrow('write after shutdown');
  });

  it('without any write, shutdown still writes a valid empty bundle with a generated run id', async () => {
    const dir = join(await tempDir(), 'empty');
    const sink = toRunBundle(dir, { clock: () => new Date('2026-07-15T09:30:12Z') });
    await sink.shutdown();
    const bundle = await readBundle(dir);
    expect(bundle.manifest.run_id).toMatch(/^agent-eval-20260715093012-[0-9a-f]{8}$/);
    expect(bundle.scores).toEqual([]);
    expect(bundle.summary).toMatchObject({ task_count: 0, trial_count: 0, score_count: 0, error_count: 0 });
    expect(await readFile(join(dir, 'scores.jsonl'), 'utf8')).toBe('');
  });

  it('with a fixed task list, a trial of another task is an error', async () => {
    const { items, tasks } = await scoredTrials(SDK_SPARSE);
    const sink = toRunBundle(join(await tempDir(), 'r'), { tasks: tasks.map((t) => ({ ...t, id: 'Z' })) });
    await expect(sink.write(items[0] as ScoredTrial)).rejects.toThrow("names unknown task 'A'");
    // the refused trial is not in the bundle; shutting down closes the staged files
    await sink.shutdown();
  });

  it('stores refs outside the bundle verbatim and refs inside it bundle-relative', async () => {
    const { items } = await scoredTrials(SDK_SPARSE);
    const dir = join(await tempDir(), 'run');
    const outside = join(await tempDir(), 'trace.json');
    await writeFile(outside, '{}');
    const first = structuredClone(items[0]) as ScoredTrial;
    const descriptors = first.item.trial.evidence?.descriptors ?? {};
    descriptors['trace'] = {
      ...(descriptors['trace'] as NonNullable<(typeof descriptors)['trace']>),
      ref: outside,
    };
    descriptors['logs'] = {
      kind: 'logs',
      format: null,
      ref: join(dir, 'logs'),
      data: null,
      description: null,
      metadata: {},
    };
    const sink = toRunBundle(dir);
    await sink.write(first);
    await sink.shutdown();
    const line = (await readFile(join(dir, 'trials.jsonl'), 'utf8')).split('\n')[0] as string;
    expect(line).toContain(`"ref": ${JSON.stringify(outside)}`);
    expect(line).toContain('"ref": "logs"');
    expect(existsSync(join(dir, 'evidence'))).toBe(false);
  });

  it('builds summary.json as the scores pass, the bytes a recomputation from the written files gives', async () => {
    // several tasks met in a mixed order, recorded rewards, int and float values: Gym rollouts and a Harbor job
    for (const [i, input] of [
      'test/fixtures/gym/rollouts.jsonl',
      'test/fixtures/harbor/job-2026-01-05',
    ].entries()) {
      const out = join(await tempDir(), `live-${i}`);
      let handed: Summary | null = null;
      const sink = toRunBundle(out, {
        runId: 'R',
        onSummary: (summary) => {
          handed = summary;
        },
      });
      const { error } = await runPipeline(
        buildPipeline({ source: openInputs([input]), sinks: [sink], runId: 'R' }),
      );
      expect(error).toBeNull();
      const again = await summarizeBundle(out, { outDir: join(await tempDir(), `again-${i}`) });
      expect(again.unchanged, input).toBe(true);
      expect(handed).toEqual(again.summary);
    }
  });

  it('writes, from the stream, the report.html its bundle rebuilds, byte for byte', async () => {
    const bundle = bigRun(60, 25);
    const dir = join(await tempDir(), 'streamed');
    const sink = toRunBundle(dir, {
      runId: bundle.runId,
      tasks: bundle.tasks,
      clock: fixedClock(),
      reportWriter: bundleReportWriter,
    });
    for (const trial of bundle.trials) {
      await sink.write({
        item: { trial, evidence: null, task: null, origin: { file: 'memory' } },
        scores: bundle.scores.filter((s) => s.trial_id === trial.id && s.task_id === trial.task_id),
        task: bundle.tasks.find((t) => t.id === trial.task_id) as TaskSpec,
      });
    }
    await sink.shutdown();
    const streamed = await readFile(join(dir, 'report.html'), 'utf8');
    const rebuilt = join(await tempDir(), 'rebuilt.html');
    await reportWriterFor(dir, { outPath: rebuilt });
    expect(streamed.length).toBeGreaterThan(100_000);
    expect(streamed).toBe(await readFile(rebuilt, 'utf8'));
  });
});
