import { createReadStream, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { BundleReadError } from '../bundle/bundle-read-error.js';
import { InputError } from '../sources/input-error.js';
import { isDuckDBFile } from './is-duckdb-file.js';
import { parseRunRef } from './parse-run-ref.js';
import { BUNDLE_FILES } from '../bundle/bundle-files.js';
import { forEachDiagnosticRow } from '../bundle/for-each-diagnostic-row.js';
import { readBundleJson } from '../bundle/read-bundle-json.js';
import { rowSchemas } from '../bundle/row-schemas.js';
import type { Summary } from '../model/summary.js';
import { openDuckDB, type DuckDBSession } from '../sinks/duckdb/open-duckdb.js';
import { summarizeStoreRun } from '../sql-summary/summarize-store-run.js';
import { pickStoreRun, type StoredRun } from './pick-store-run.js';

/**
 * Reads a run for `compare`: a directory is a run bundle (its `summary.json`), a DuckDB file an
 * evalstream store (`store.duckdb#RUN_ID`, or `runId`, picks a run; default the newest), a `.jsonl`
 * file NeMo Gym rollouts. Anything else throws a `BundleReadError` naming the path; a run id given
 * for a bundle or rollouts file throws an `InputError`.
 *
 * @example
 * const a = await readRunValues('runs/a');
 * const b = await readRunValues('runs/all.duckdb#R2');
 */
export async function readRunValues(arg: string, runId: string | null = null): Promise<RunValues> {
  const ref = parseRunRef(arg);
  const path = ref.path;
  if (ref.runId !== null && runId !== null && ref.runId !== runId)
    throw new InputError(`two run ids given: '${ref.runId}' and '${runId}'`, { file: path, field: 'run_id' });
  const chosen = runId ?? ref.runId;
  if (isDuckDBFile(path)) return readStoreValues(path, chosen, arg);
  if (chosen !== null && existsSync(path))
    throw new InputError(`a run id ('${chosen}') only chooses a run of a DuckDB store`, {
      file: path,
      field: 'run_id',
    });
  if (existsSync(path) && statSync(path).isDirectory()) return readBundleValues(path);
  if (existsSync(path) && /\.jsonl$/i.test(path)) return readGymRolloutValues(path);
  throw new BundleReadError([
    {
      code: existsSync(path) ? 'unreadable_file' : 'missing_file',
      file: path,
      path: [],
      message: existsSync(path)
        ? 'not a run bundle directory, a DuckDB store or a Gym rollouts .jsonl file'
        : 'no such file or directory',
    },
  ]);
}

/** One trial's value of one output: booleans as 0/1. */
export interface TrialValue {
  trialId: string;
  value: number;
}

/**
 * The per-trial values of a run that `compare` needs, whatever it was read from: per output, per task
 * (in the run's task order), the finite values in trial order.
 *
 * @example
 * const run: RunValues = { source: 'runs/a', runId: 'a', outputs: new Map([['judge.score', new Map([['t1', [{ trialId: 'x', value: 1 }]]])]]), binary: new Set(['judge.score']) };
 */
export interface RunValues {
  /** Where the run was read from (as given on the command line). */
  source: string;
  runId: string | null;
  /** Rows of the bundle's `diagnostics.jsonl` (the trials' input diagnostics); absent: no such file. */
  diagnostics?: number;
  outputs: Map<string, Map<string, TrialValue[]>>;
  /** Outputs whose every value is 0/1 or a boolean. */
  binary: Set<string>;
}

/**
 * Reads the per-trial values of a run bundle from its `summary.json` (`task_metric_values`: every
 * output of every task, trial by trial; numbers and booleans kept, labels, missing and non-finite
 * values dropped), and counts the rows of its `diagnostics.jsonl` when it has one. Throws
 * `BundleReadError` (naming the file and field) when the bundle has no valid summary or a bad
 * diagnostics line.
 *
 * @example
 * const a = await readBundleValues('runs/a');
 * a.outputs.get('verifier_reward.reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, ...]
 */
export async function readBundleValues(dir: string): Promise<RunValues> {
  const abs = resolve(dir);
  if (!existsSync(join(abs, BUNDLE_FILES.summary))) {
    const file = join(dir, BUNDLE_FILES.summary);
    throw BundleReadError.missingFile(file, 'missing (write it with `evalstream summarize`)');
  }
  const summary = (await readBundleJson(abs, BUNDLE_FILES.summary, rowSchemas.summary)) as Summary;
  const manifest = await readBundleJson(abs, BUNDLE_FILES.run, rowSchemas.runManifest);
  let diagnostics = 0;
  const hasDiagnostics = await forEachDiagnosticRow(abs, () => {
    diagnostics += 1;
  });
  return {
    source: dir,
    runId: manifest?.run_id ?? null,
    ...(hasDiagnostics ? { diagnostics } : {}),
    ...summaryValues(summary),
  };
}

/**
 * Reads the per-trial values of one run of an evalstream DuckDB store (written by `score --db` or
 * `serve --db`) for `compare`: `runId`, or the newest run the store holds. The store is opened
 * read-only and the run's task values are computed in SQL, in bulk (`summarizeStoreRun`), so the
 * values are those of the `summary.json` the same run's bundle holds, in the same order. Throws an
 * `InputError` naming the store when it cannot be opened, is not an evalstream store, or does not
 * hold the run.
 *
 * @example
 * const b = await readStoreValues('runs/all.duckdb', 'R2');
 * b.outputs.get('verifier_reward.reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, ...]
 */
export async function readStoreValues(
  path: string,
  runId: string | null = null,
  source = runId === null ? path : `${path}#${runId}`,
): Promise<RunValues> {
  let db: DuckDBSession;
  try {
    db = await openDuckDB(path, { readOnly: true });
  } catch (error) {
    throw new InputError(`cannot open the store: ${(error as Error).message}`, { file: path });
  }
  try {
    let runs: StoredRun[];
    try {
      const reader = await db.connection.runAndReadAll('SELECT run_id, written_at FROM runs');
      runs = reader
        .getRows()
        .map(([id, at]) => ({ runId: String(id), writtenAt: at === null ? null : String(at) }));
    } catch {
      throw new InputError('not an evalstream store (no runs table)', { file: path });
    }
    const chosen = pickStoreRun(path, runs, runId);
    const summary = await summarizeStoreRun(db.connection, chosen);
    return { source, runId: chosen, ...summaryValues(summary) };
  } finally {
    db.close();
  }
}

/**
 * Reads the rewards of a NeMo Gym rollouts file (JSONL, one rollout per line) as one output,
 * `reward`: task = `_ng_task_index` (prefixed by `agent_ref.name` when there is one), trial =
 * `<task>-<_ng_rollout_index>`, trials of a task in rollout order. Booleans count as 0/1; a null or
 * non-finite reward is left out. A line that is not a JSON object with integer indexes, or a repeated
 * (task, rollout), throws an `InputError` naming the file, line and field.
 *
 * @example
 * const a = await readGymRolloutValues('results/rollouts.jsonl');
 * a.outputs.get('reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, { trialId: '0-1', value: 0 }]
 */
export async function readGymRolloutValues(file: string): Promise<RunValues> {
  const byTask = new Map<string, { rollout: number; value: TrialValue | null }[]>();
  const seen = new Set<string>();
  let binary = true;
  let line = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch (error) {
      throw new InputError(`not JSON: ${(error as Error).message}`, { file, line });
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row))
      throw new InputError('a rollout must be a JSON object', { file, line });
    const r = row as Record<string, unknown>;
    const index = (field: string): number => {
      const v = r[field];
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new InputError(`${field} must be an integer, got ${JSON.stringify(v)}`, { file, line, field });
      return v;
    };
    const task = index('_ng_task_index');
    const rollout = index('_ng_rollout_index');
    const agent = r['agent_ref'] as { name?: unknown } | undefined;
    const taskId = typeof agent?.name === 'string' ? `${agent.name}:${task}` : String(task);
    const key = `${taskId}\u0000${rollout}`;
    if (seen.has(key)) throw new InputError(`rollout (${task}, ${rollout}) appears twice`, { file, line });
    seen.add(key);
    const reward = r['reward'];
    const value = typeof reward === 'boolean' ? (reward ? 1 : 0) : typeof reward === 'number' ? reward : NaN;
    const finite = Number.isFinite(value);
    if (finite && value !== 0 && value !== 1) binary = false;
    let trials = byTask.get(taskId);
    if (trials === undefined) byTask.set(taskId, (trials = []));
    trials.push({ rollout, value: finite ? { trialId: `${taskId}-${rollout}`, value } : null });
  }
  const tasks = new Map<string, TrialValue[]>();
  for (const [task, trials] of byTask) {
    trials.sort((x, y) => x.rollout - y.rollout);
    tasks.set(
      task,
      trials.flatMap((t) => (t.value === null ? [] : [t.value])),
    );
  }
  return {
    source: file,
    runId: null,
    outputs: new Map([['reward', tasks]]),
    binary: binary ? new Set(['reward']) : new Set(),
  };
}

/**
 * The per-trial values `compare` needs, taken from a summary's `task_metric_values` (every output of
 * every task, trial by trial, in the summary's task order): numbers and booleans (as 0/1) kept;
 * labels, missing and non-finite values dropped. An output is binary when every value kept is 0 or 1.
 *
 * @example
 * const { outputs, binary } = summaryValues(summary);
 * outputs.get('verifier_reward.reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, ...]
 */
export function summaryValues(summary: Summary): Pick<RunValues, 'outputs' | 'binary'> {
  const outputs = new Map<string, Map<string, TrialValue[]>>();
  const nonBinary = new Set<string>();
  for (const task of Object.keys(summary.task_metric_values)) {
    for (const [name, records] of Object.entries(summary.task_metric_values[task] ?? {})) {
      const values: TrialValue[] = [];
      for (const record of records) {
        if (record.value_type !== 'number') continue;
        const v = record.value;
        const value = typeof v === 'boolean' ? Number(v) : typeof v === 'number' ? v : NaN;
        if (!Number.isFinite(value)) continue;
        if (value !== 0 && value !== 1) nonBinary.add(name);
        values.push({ trialId: record.trial_id, value });
      }
      let byTask = outputs.get(name);
      if (byTask === undefined) outputs.set(name, (byTask = new Map()));
      byTask.set(task, values);
    }
  }
  const binary = new Set([...outputs.keys()].filter((name) => !nonBinary.has(name)));
  return { outputs, binary };
}
