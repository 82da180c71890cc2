import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json-value.js';
import type { Diagnostic, ScoreRecord, ScoreStatus } from '../../src/model/score-record.js';
import type { MetricDescriptor, SemanticReducer, SemanticView, TaskSpec } from '../../src/model/task.js';
import type { Trial } from '../../src/model/trial.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';
import { writeRun } from '../../src/sinks/duckdb/write-run.js';
import { summarizeStoreRun } from '../../src/sql-summary/summarize-store-run.js';
import { summarizeWithDuckDB } from '../../src/sql-summary/summarize-with-duckdb.js';
import { buildSummary } from '../../src/summary/build-summary.js';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import { taskToWire } from '../../src/bundle/to-wire.js';
import { PyFloat } from '../../src/pycompat/py-float.js';
import { pythonJson } from '../../src/pycompat/python-json.js';
import { BundleReadError } from '../../src/bundle/bundle-read-error.js';
import { duckdbBundleSummaryEngine } from '../../src/sql-summary/duckdb-bundle-summary-engine.js';
import { withTestDb } from '../sinks/duckdb-test-db.js';
import { expectSummariesClose } from './expect-summaries-close.js';

// Small pools so that collisions happen: repeated task/trial ids, shared metric types, undeclared
// outputs, names whose code-point order differs from UTF-16 order.
const TASK_IDS = ['A', 'B', 'C', 'D'];
const TRIAL_IDS = ['t1', 't2', 't3', 't4', 't5'];
const METRICS = ['m', 'n', 'q.r'];
const OUTPUTS = ['x', 'y', 'x.y', '\uFFFD', '\u{1F600}'];
const SCHEMAS = ['ContinuousScore', 'DiscreteScore', 'BooleanValue', 'Label', 'TokenCount'];
const REDUCERS: SemanticReducer[] = ['single', 'all', 'any', 'mean', 'weighted_mean'];

const value: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 3 }) },
  { weight: 4, arbitrary: fc.constantFrom(0, 1, 0.1, 0.2, 0.5, 1.5, -0, 1e16, -1e16) },
  { weight: 3, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constantFrom('pass', 'NaN', '', 'fail') },
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(null, { a: 1 }, [1, 2]) },
);

const descriptor: fc.Arbitrary<MetricDescriptor> = fc.record({
  type: fc.constantFrom(...METRICS),
  outputs: fc.array(
    fc.record({
      name: fc.constantFrom(...OUTPUTS),
      description: fc.constant(null),
      value_schema: fc.constantFrom(...SCHEMAS),
      required: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
});

const semanticView: fc.Arbitrary<SemanticView> = fc.record({
  reducer: fc.constantFrom(...REDUCERS),
  signals: fc.array(
    fc.record({
      metric: fc.constantFrom(...METRICS),
      output: fc.constantFrom(...OUTPUTS),
      weight: fc.oneof(fc.constant(null), fc.constantFrom(0, 1, 2, 0.5, -1)),
    }),
    { maxLength: 3 },
  ),
});

const taskSpec: fc.Arbitrary<TaskSpec> = fc.record({
  id: fc.constantFrom(...TASK_IDS.slice(0, 3)),
  intent: fc.constant(''),
  inputs: fc.constant({}),
  reference: fc.constant({}),
  metrics: fc.array(descriptor, { maxLength: 3 }),
  views: fc.dictionary(fc.constantFrom('v1', 'v2', 'w'), semanticView, { maxKeys: 2 }),
  metadata: fc.constant({}),
});

const trialFailure: Diagnostic = {
  severity: 'error',
  message: 'trial is failed',
  source: null,
  details: { trial_status: 'failed' },
};
const metricFailure: Diagnostic = {
  severity: 'error',
  message: 'boom',
  source: null,
  details: { exception_type: 'ValueError' },
};

const scoreRecord: fc.Arbitrary<ScoreRecord> = fc
  .record({
    task_id: fc.constantFrom(...TASK_IDS),
    trial_id: fc.constantFrom(...TRIAL_IDS),
    metric_type: fc.constantFrom(...METRICS),
    status: fc.constantFrom<ScoreStatus>('completed', 'completed', 'partial', 'failed'),
    failure: fc.constantFrom('trial', 'metric', 'completed-diag'),
    outputs: fc.array(fc.record({ name: fc.constantFrom(...OUTPUTS), value }), { maxLength: 4 }),
  })
  .map(({ task_id, trial_id, metric_type, status, failure, outputs }) => ({
    id: `R:${task_id}:${trial_id}:${metric_type}`,
    run_id: 'R',
    task_id,
    trial_id,
    metric_type,
    status,
    outputs: status === 'failed' && failure !== 'completed-diag' ? [] : outputs,
    diagnostics:
      status !== 'failed'
        ? []
        : failure === 'trial'
          ? [trialFailure]
          : failure === 'metric'
            ? [metricFailure]
            : [{ ...trialFailure, details: { trial_status: 'completed' } }],
    metadata: {},
  }));

const trial: fc.Arbitrary<Pick<Trial, 'id' | 'error'>> = fc.record({
  id: fc.constantFrom(...TRIAL_IDS),
  error: fc.oneof(
    fc.constant(null),
    fc.record({
      type: fc.constantFrom('Timeout', 'AgentError'),
      message: fc.constant(null),
      traceback: fc.constant(null),
      occurred_at: fc.constant(null),
    }),
  ),
});

const run = fc.record({
  tasks: fc.oneof(fc.constant(null), fc.array(taskSpec, { maxLength: 4 })),
  scores: fc.array(scoreRecord, { maxLength: 30, size: 'max' }),
  trials: fc.array(trial, { maxLength: 5 }),
});

describe('summary in SQL equals the in-memory engine', () => {
  it('on random runs (sparse optional outputs, failed trials, labels, booleans, NaN, views)', async () => {
    await fc.assert(
      fc.asyncProperty(run, async ({ tasks, scores, trials }) => {
        const expected = buildSummary({ scores, tasks, trials });
        const actual = await withTestDb(async (connection) => {
          await writeRun(connection, { runId: 'R', tasks, scores, trials });
          return summarizeStoreRun(connection, 'R');
        });
        expectSummariesClose(actual, expected);
      }),
      { numRuns: 60 },
    );
    // dozens of fresh DuckDB databases: allow for a loaded shared 2-core machine
  }, 240_000);

  it('on runs with many trials per task (pass@k over long k ranges, view occurrences)', async () => {
    const tasks: TaskSpec[] = [
      {
        id: 'A',
        intent: '',
        inputs: {},
        reference: {},
        metrics: [
          {
            type: 'm',
            outputs: [
              { name: 'x', description: null, value_schema: 'ContinuousScore', required: true },
              { name: 'ok', description: null, value_schema: 'BooleanValue', required: false },
            ],
          },
        ],
        views: { both: { reducer: 'mean', signals: [{ metric: 'm', output: 'x', weight: null }] } },
        metadata: {},
      },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...TRIAL_IDS), fc.double({ min: 0, max: 2 }), fc.boolean()), {
          minLength: 1,
          maxLength: 60,
          size: 'max',
        }),
        async (rows) => {
          const scores: ScoreRecord[] = rows.map(([t, x, ok], i) => ({
            id: String(i),
            run_id: 'R',
            task_id: 'A',
            trial_id: t,
            metric_type: 'm',
            status: 'completed',
            outputs:
              i % 3 === 0
                ? [{ name: 'x', value: x }]
                : [
                    { name: 'x', value: x },
                    { name: 'ok', value: ok },
                  ],
            diagnostics: [],
            metadata: {},
          }));
          const expected = buildSummary({ scores, tasks });
          const actual = await summarizeWithDuckDB({ scores, tasks });
          expectSummariesClose(actual, expected);
        },
      ),
      { numRuns: 10 },
    );
    // dozens of fresh DuckDB databases: allow for a loaded shared 2-core machine
  }, 240_000);

  it('matches the spec §9 worked example bit for bit', async () => {
    const tasks: TaskSpec[] = [
      {
        id: 'A',
        intent: '',
        inputs: {},
        reference: {},
        metrics: [
          {
            type: 'harbor_reward',
            outputs: [
              { name: 'reward', description: null, value_schema: 'ContinuousScore', required: true },
              { name: 'format_ok', description: null, value_schema: 'ContinuousScore', required: false },
            ],
          },
        ],
        views: {
          format_quality: {
            reducer: 'single',
            signals: [{ metric: 'harbor_reward', output: 'format_ok', weight: null }],
          },
        },
        metadata: {},
      },
    ];
    const score = (trialId: string, outputs: [string, number][]): ScoreRecord => ({
      id: `R:A:${trialId}:harbor_reward`,
      run_id: 'R',
      task_id: 'A',
      trial_id: trialId,
      metric_type: 'harbor_reward',
      status: 'completed',
      outputs: outputs.map(([name, v]) => ({ name, value: v })),
      diagnostics: [],
      metadata: {},
    });
    const scores = [
      score('a1', [
        ['reward', 1.0],
        ['format_ok', 1.0],
      ]),
      score('a2', [['reward', 0.0]]),
    ];
    const actual = await summarizeWithDuckDB({ scores, tasks });
    expect(actual).toEqual(buildSummary({ scores, tasks }));
    const reward = actual.scores.scores.find((s) => s.name === 'harbor_reward.reward');
    expect(reward).toMatchObject({ count: 2, mean: 0.5, std_dev: 0.5, variance: 0.25, sample_variance: 0.5 });
    expect(actual.scores.scores.map((s) => [s.name, s.count, s.nan_count, s.mean])).toEqual([
      ['harbor_reward.format_ok', 1, 1, 1],
      ['harbor_reward.reward', 2, 0, 0.5],
      ['view.format_quality', 1, 1, 1],
      ['harbor_reward.format_ok.pass@1', 1, 0, 1],
      ['harbor_reward.format_ok.pass@2', 0, 1, null],
      ['harbor_reward.reward.pass@1', 1, 0, 0.5],
      ['harbor_reward.reward.pass@2', 1, 0, 1],
    ]);
    expect(actual.metric_coverage).toEqual({
      harbor_reward: {
        format_ok: { total: 2, scored: 1, failed: 0, missing: 1 },
        reward: { total: 2, scored: 2, failed: 0, missing: 0 },
      },
    });
  });

  it('takes streamed (async) scores and trials, and a given DuckDB file', async () => {
    const scores = [
      ...['a1', 'a2', 'a3'].map((t, i): ScoreRecord => ({
        id: t,
        run_id: 'streamed',
        task_id: 'A',
        trial_id: t,
        metric_type: 'm',
        status: 'completed',
        outputs: [{ name: 'x', value: i / 3 }],
        diagnostics: [],
        metadata: {},
      })),
    ];
    async function* stream<T>(items: T[]): AsyncGenerator<T> {
      for (const item of items) yield item;
    }
    const trials = [{ id: 'a2', error: { type: 'Boom', message: null, traceback: null, occurred_at: null } }];
    const expected = buildSummary({ scores, trials });
    const dir = mkdtempSync(join(tmpdir(), 'es-sql-summary-'));
    try {
      const db = join(dir, 'runs.duckdb');
      expect(await summarizeWithDuckDB({ db, scores: stream(scores), trials: stream(trials) })).toEqual(
        expected,
      );
      // The run stays in the file under the scores' run id.
      const again = await openDuckDB(db, { readOnly: true });
      try {
        expect(await summarizeStoreRun(again.connection, 'streamed')).toEqual(expected);
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('from bundle files (rows staged by DuckDB, no store tables): the same summary.json bytes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'es-sql-staged-'));
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(run, async (input) => {
          const dir = join(root, `run-${n}`);
          // every other run without a repeated (task, trial, metric): such runs stay staged
          const seen = new Set<string>();
          const scores =
            n++ % 2 === 0
              ? input.scores
              : input.scores.filter((s) => {
                  const key = JSON.stringify([s.task_id, s.trial_id, s.metric_type]);
                  return !seen.has(key) && seen.add(key) !== undefined;
                });
          await writeBundle(dir, { ...input, scores });
          // task lists the bundle reader refuses (a repeated output name) are not runs of a bundle
          const memory = await summarizeBundle(dir, { outDir: `${dir}-memory` }).catch((error: unknown) => {
            if (error instanceof BundleReadError) return null;
            throw error;
          });
          fc.pre(memory !== null);
          await summarizeBundle(dir, { outDir: `${dir}-sql`, summaryEngine: duckdbBundleSummaryEngine() });
          expect(readFileSync(join(`${dir}-sql`, 'summary.json'), 'utf8')).toBe(
            readFileSync(join(`${dir}-memory`, 'summary.json'), 'utf8'),
          );
        }),
        { numRuns: 30 },
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 240_000);
});

type WireValue = Parameters<typeof pythonJson>[0];

/**
 * Writes a generated run as bundle files in Python's JSON format; every other integral number is
 * written as a float literal (`1.0`), the rest as an int (`1`).
 */
async function writeBundle(
  dir: string,
  {
    tasks,
    scores,
    trials,
  }: { tasks: TaskSpec[] | null; scores: ScoreRecord[]; trials: Pick<Trial, 'id' | 'error'>[] },
): Promise<void> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  const lines = (rows: WireValue[]): string => rows.map((row) => `${pythonJson(row)}\n`).join('');
  let integral = 0;
  const wireValue = (v: JsonValue): WireValue =>
    typeof v === 'number' && Number.isInteger(v) && integral++ % 2 === 0 ? new PyFloat(v) : (v as WireValue);
  if (tasks !== null) await writeFile(join(dir, 'tasks.jsonl'), lines(tasks.map((t) => taskToWire(t))));
  const scoreRows = scores.map((s) => ({
    ...s,
    outputs: s.outputs.map((o) => ({ name: o.name, value: wireValue(o.value) })),
  }));
  await writeFile(join(dir, 'scores.jsonl'), lines(scoreRows as unknown as WireValue[]));
  const trialRows = trials.map((t) => ({
    error: t.error as unknown as WireValue,
    evidence: null,
    id: t.id,
    measurements: {},
    metadata: {},
    output: t.error === null ? { metadata: {}, output_text: 'ok', response: null } : null,
    status: t.error === null ? 'completed' : 'failed',
    task_id: 'A',
  }));
  await writeFile(join(dir, 'trials.jsonl'), lines(trialRows));
}
