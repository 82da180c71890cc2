import { createWriteStream, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, basename, dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { BUNDLE_FILES } from '../bundle/bundle-files.js';
import { bundleRunManifest } from '../bundle/bundle-run-manifest.js';
import { evalstreamVersion } from '../bundle/evalstream-version.js';
import { JsonlWriter } from '../bundle/jsonl-writer.js';
import { metadataToWire, taskToWire } from '../bundle/to-wire.js';
import { scoreJson, trialJson } from '../bundle/row-json.js';
import { pythonJson } from '../pycompat/python-json.js';
import { SummaryAccumulator } from '../bundle/summary-accumulator.js';
import { summaryJsonBytes } from '../bundle/summary-json-bytes.js';
import type { RunRef } from '../compare/parse-run-ref.js';
import type { JsonObject, JsonValue } from '../model/json-value.js';
import type { MetricOutput, ScoreRecord } from '../model/score-record.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import { MEASUREMENT_KEYS, type Trial } from '../model/trial.js';
import { STATS_FILE_NAME } from '../stats/stats-file-name.js';
import { statsJsonText } from '../stats/stats-json-text.js';
import type { MergeBundlesOptions, MergeBundlesResult } from './merge-bundles.js';
import { stageMergedBundle } from './stage-merged-bundle.js';
import { MergeError } from './merge-error.js';
import { isDuckDBFile } from '../compare/is-duckdb-file.js';
import { pickStoreRun, type StoredRun } from '../compare/pick-store-run.js';
import { openDuckDB, type DuckDBSession } from '../sinks/duckdb/open-duckdb.js';
import { sqlString, STORE_TABLES } from '../sinks/duckdb/store-tables.js';

/**
 * Merges runs scored in shards (disjoint trials of one run) from Parquet exports (`evalstream export
 * --parquet DIR`) and DuckDB stores into one run bundle at `outDir`, as `mergeBundles` does for
 * bundles: DuckDB reads every shard's files at once (`openTableShards`), finds trials that are in
 * more than one shard and tasks that two shards describe differently (a `MergeError` naming them),
 * then `tasks.jsonl` (first seen first), `trials.jsonl` and `scores.jsonl` (shard after shard, in
 * each shard's order) are written from the tables, and `summary.json` and `stats.json` are built from
 * the same records as the bundle sink builds them while scoring (values as the metrics returned them:
 * `NaN` stays a number, an integral value of a `ContinuousScore` output prints as a float), so the
 * summary is byte-identical to scoring everything in one process. Evidence files are not part of
 * the tables: the merged trials keep their evidence records as stored. The output directory must not
 * exist or be empty; the bundle is built next to it and renamed into place.
 *
 * @example
 * await mergeTableShards([{ path: 'out/s1', runId: null }, { path: 'out/s2', runId: null }], 'runs/all');
 */
export async function mergeTableShards(
  refs: readonly RunRef[],
  outDir: string,
  options: MergeBundlesOptions & { sources?: readonly string[] } = {},
): Promise<MergeBundlesResult> {
  if (refs.length === 0) throw new MergeError('no shard to merge');
  const sources = options.sources ?? refs.map((r) => (r.runId === null ? r.path : `${r.path}#${r.runId}`));
  const result = await stageMergedBundle(outDir, async (dir) => {
    const { db, shards } = await openTableShards(refs, sources);
    try {
      await refuseOverlaps(db.connection, shards);
      await refuseTaskConflicts(db.connection, shards);
      return { shards, ...(await writeBundleFiles(db.connection, shards, dir)) };
    } finally {
      db.close();
    }
  });
  if (options.reportWriter) await options.reportWriter(result.dir, { summary: result.summary.summary });
  return result;
}

/** Trials (by task and trial id) that more than one shard holds, as trial rows or as scores. */
async function refuseOverlaps(c: DuckDBConnection, shards: readonly TableShard[]): Promise<void> {
  const rows = (
    await c.runAndReadAll(`
      WITH k AS (
        SELECT shard, task_id, trial_id, min(trial_ordinal) AS ordinal FROM m_trials GROUP BY ALL
        UNION ALL
        SELECT DISTINCT shard, task_id, trial_id, NULL FROM m_scores),
      -- one row per (shard, trial), with its trial ordinal when the shard has the trial row
      d AS (SELECT DISTINCT ON (shard, task_id, trial_id) * FROM k
            ORDER BY shard, task_id, trial_id, ordinal NULLS LAST)
      SELECT task_id, trial_id, shards FROM (
        SELECT task_id, trial_id, list(shard ORDER BY shard) AS shards, list(ordinal ORDER BY shard) AS ordinals
        FROM d GROUP BY task_id, trial_id HAVING count(*) > 1)
      ORDER BY shards[2], ordinals[2] NULLS LAST, task_id, trial_id`)
  ).getRowsJS();
  if (rows.length === 0) return;
  const shardOf = (list: unknown, i: number): string | undefined =>
    shards[(list as number[])[i] as number]?.source;
  const overlaps = rows.map(([task, trial, list]) => {
    return `(${String(task)}, ${String(trial)}) in ${shardOf(list, 0)} and ${shardOf(list, 1)}`;
  });
  throw MergeError.overlaps(overlaps);
}

const TASK_FIELDS = `intent, inputs::VARCHAR, reference::VARCHAR, metrics::VARCHAR, views::VARCHAR, metadata::VARCHAR`;

/** A task that two shards describe differently. */
async function refuseTaskConflicts(c: DuckDBConnection, shards: readonly TableShard[]): Promise<void> {
  const rows = (
    await c.runAndReadAll(`
      SELECT task_id, list(DISTINCT shard ORDER BY shard) AS shards FROM m_tasks
      GROUP BY task_id HAVING count(DISTINCT (${TASK_FIELDS})) > 1
      ORDER BY min((shard, task_ordinal))`)
  ).getRowsJS();
  if (rows.length === 0) return;
  const [task, list] = rows[0] as [string, number[]];
  const named = list.map((s) => shards[s]?.source).join(', ');
  throw new MergeError(
    `task '${task}' is described differently by the shards (${named})${rows.length > 1 ? `, and ${rows.length - 1} more tasks` : ''}`,
  );
}

/** Writes the files of the merged run into `dir`, its summary built as the records are written. */
async function writeBundleFiles(
  c: DuckDBConnection,
  shards: readonly TableShard[],
  dir: string,
): Promise<{ trials: number; scores: number; summary: Summary }> {
  const runId = (shards[0] as TableShard).runId;
  // a run stored without task specs is summarized without them (outputs discovered from scores)
  const withTasks = Number((await c.runAndReadAll('SELECT count(*) FROM m_tasks')).getRows()[0]?.[0]) > 0;
  const accumulator = new SummaryAccumulator(withTasks ? [] : null);
  if (withTasks) {
    const tasks = await JsonlWriter.create(join(dir, BUNDLE_FILES.tasks));
    await forEachRow(
      c,
      `SELECT task_id, intent, inputs, reference, metrics, views, metadata FROM m_tasks
       QUALIFY row_number() OVER (PARTITION BY task_id ORDER BY shard, task_ordinal) = 1
       ORDER BY shard, task_ordinal`,
      async (row) => {
        const task = taskOf(row);
        accumulator.addTaskSpec(task);
        await tasks.writeLine(pythonJson(taskToWire(task)));
      },
    );
    await tasks.close();
  }

  const trials = await JsonlWriter.create(join(dir, BUNDLE_FILES.trials));
  const trialCount = await forEachRow(
    c,
    'SELECT * EXCLUDE (shard) FROM m_trials ORDER BY shard, trial_ordinal',
    async (row) => {
      const trial = trialOf(row);
      accumulator.addTrial(trial);
      await trials.writeLine(trialJson(trial));
    },
  );
  await trials.close();

  const scores = await JsonlWriter.create(join(dir, BUNDLE_FILES.scores));
  const runIds = shards.map((s) => s.runId);
  const scoreCount = await forEachRow(
    c,
    `
      SELECT s.shard, s.score_id, s.task_id, s.trial_id, s.metric_type, s.status, s.diagnostics, s.metadata,
        coalesce(o.outputs, []) AS outputs
      FROM m_scores s
      LEFT JOIN (
        SELECT shard, score_ordinal,
          list({'name': output_name, 'type': value_type, 'num': num_value, 'label': label_value,
                'json': json_value::VARCHAR, 'kind': declared_kind} ORDER BY output_ordinal) AS outputs
        FROM m_score_outputs GROUP BY shard, score_ordinal) o
        ON o.shard = s.shard AND o.score_ordinal = s.score_ordinal
      ORDER BY s.shard, s.score_ordinal`,
    async (row) => {
      const outputs = row['outputs'] as unknown as StoredOutput[];
      const continuous = new Set(outputs.filter((o) => o.kind === 'continuous').map((o) => o.name));
      const score: ScoreRecord = {
        id: str(row['score_id']) ?? '',
        run_id: runIds[Number(row['shard'])] ?? runId,
        task_id: String(row['task_id']),
        trial_id: String(row['trial_id']),
        metric_type: String(row['metric_type']),
        status: String(row['status']) as ScoreRecord['status'],
        outputs: outputs.map(outputOf),
        diagnostics: (json(row['diagnostics']) ?? []) as unknown as ScoreRecord['diagnostics'],
        metadata: (json(row['metadata']) ?? {}) as JsonObject,
      };
      // the bundle writer's rule for values computed in memory: see `scoreToWire`
      const lookup = (_type: string, name: string) => (continuous.has(name) ? 'ContinuousScore' : undefined);
      await scores.writeLine(scoreJson(score, lookup));
      accumulator.addScore(score, null);
    },
  );
  await scores.close();

  const [runRow] = await (
    await c.runAndReadAll(`SELECT metadata::VARCHAR AS metadata FROM m_runs ORDER BY shard LIMIT 1`)
  ).getRowObjectsJS();
  const stored = (json(runRow?.['metadata']) ?? {}) as JsonObject;
  const labels = stored['labels'];
  const metadata = metadataToWire({
    labels:
      labels !== null && typeof labels === 'object' && !Array.isArray(labels)
        ? (labels as Record<string, string>)
        : {},
    target: null,
    started_at: null,
    finished_at: null,
    duration_sec: null,
    sdk_version: `evalstream ${evalstreamVersion()}`,
  });
  await writeFile(join(dir, BUNDLE_FILES.metadata), pythonJson(metadata, { indent: 2 }) + '\n');
  const manifest = bundleRunManifest(runId, withTasks);
  await writeFile(join(dir, BUNDLE_FILES.run), pythonJson(manifest, { indent: 2 }) + '\n');
  const { summary, isFloat } = accumulator.finish();
  await pipeline(
    Readable.from(summaryJsonBytes(summary, isFloat, { newline: true })),
    createWriteStream(join(dir, BUNDLE_FILES.summary)),
  );
  await writeFile(join(dir, STATS_FILE_NAME), statsJsonText(summary));
  return { trials: trialCount, scores: scoreCount, summary };
}

interface StoredOutput {
  name: string;
  type: string;
  num: number | null;
  label: string | null;
  json: string | null;
  kind: string | null;
}

/** An output value as the metric returned it (`classifyOutputValue` in reverse). */
function outputOf(o: StoredOutput): MetricOutput {
  switch (o.type) {
    case 'number':
      return { name: o.name, value: o.num ?? NaN };
    case 'boolean':
      return { name: o.name, value: o.num === 1 };
    case 'string':
      return { name: o.name, value: o.label ?? '' };
    case 'array':
    case 'object':
      return { name: o.name, value: json(o.json) };
    default:
      return { name: o.name, value: null };
  }
}

type Row = Record<string, unknown>;

/** Streams the rows of a query in DuckDB's chunks, one at a time; returns how many there were. */
async function forEachRow(
  c: DuckDBConnection,
  sql: string,
  onRow: (row: Row) => Promise<void>,
): Promise<number> {
  let n = 0;
  for await (const batch of (await c.stream(sql)).yieldRowObjectJs()) {
    for (const row of batch) {
      n += 1;
      await onRow(row);
    }
  }
  return n;
}

function taskOf(row: Row): TaskSpec {
  return {
    id: String(row['task_id']),
    intent: str(row['intent']) ?? '',
    inputs: (json(row['inputs']) ?? {}) as JsonObject,
    reference: (json(row['reference']) ?? {}) as JsonObject,
    metrics: (json(row['metrics']) ?? []) as unknown as TaskSpec['metrics'],
    views: (json(row['views']) ?? {}) as unknown as TaskSpec['views'],
    metadata: (json(row['metadata']) ?? {}) as JsonObject,
  };
}

function trialOf(row: Row): Trial {
  const measurement = (key: string): number | null => (row[key] === null ? null : Number(row[key]));
  return {
    id: String(row['trial_id']),
    task_id: str(row['task_id']) ?? '',
    status: (str(row['status']) ?? 'completed') as Trial['status'],
    output: json(row['output']) as unknown as Trial['output'],
    evidence: json(row['evidence']) as unknown as Trial['evidence'],
    error: json(row['error']) as unknown as Trial['error'],
    measurements: Object.fromEntries(
      MEASUREMENT_KEYS.map((key) => [key, measurement(key)]),
    ) as Trial['measurements'],
    metadata: (json(row['metadata']) ?? {}) as JsonObject,
  };
}

function str(v: unknown): string | null {
  return v === null || v === undefined ? null : String(v);
}

/** A stored JSON column's value (SQL NULL and JSON `null` alike give null). */
function json(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  return JSON.parse(String(v)) as JsonValue;
}

/** The store tables a merge reads; each becomes the temp view `m_<table>` with a `shard` column. */
export const MERGED_TABLES = ['runs', 'tasks', 'trials', 'scores', 'score_outputs'] as const;

/** One shard of a table merge: where it was read from and the run taken from it. */
export interface TableShard {
  /** As given on the command line. */
  source: string;
  runId: string;
}

/** An in-memory DuckDB whose temp views `m_runs`, `m_tasks`, … hold every shard's run (see {@link openTableShards}). */
export interface TableShards {
  db: DuckDBSession;
  shards: TableShard[];
}

/**
 * Opens the runs of several Parquet exports (`evalstream export --parquet DIR`) and DuckDB stores as
 * one set of tables: in an in-memory DuckDB, the temp view `m_<table>` of each of
 * {@link MERGED_TABLES} is every shard's rows of its run, with a `shard` column (the shard's
 * position) in place of `run_id`. The Parquet files of all shards are read by one `read_parquet([...])`
 * per table; stores are attached read-only. A shard's run is the one its `#RUN_ID` names, else its
 * newest. Throws a `MergeError` naming the shard that is neither, cannot be read, or lacks the run.
 *
 * @example
 * const { db, shards } = await openTableShards([{ path: 'out/s1', runId: null }, { path: 's2.duckdb', runId: 'R' }]);
 * await db.connection.runAndReadAll('SELECT shard, count(*) FROM m_scores GROUP BY shard');
 */
export async function openTableShards(
  refs: readonly RunRef[],
  sources: readonly string[],
): Promise<TableShards> {
  const db = await openDuckDB(':memory:');
  try {
    const c = db.connection;
    const shards: TableShard[] = [];
    // table → parquet files of every shard, and which shard each file belongs to
    const files = new Map<string, { file: string; shard: number }[]>();
    const storeParts = new Map<string, string[]>();
    for (const [shard, ref] of refs.entries()) {
      const source = sources[shard] ?? ref.path;
      if (isDuckDBFile(ref.path)) {
        const alias = `s${shard}`;
        try {
          await c.run(`ATTACH ${sqlString(resolve(ref.path))} AS ${alias} (READ_ONLY)`);
        } catch (error) {
          throw new MergeError(`${source}: cannot open the store: ${(error as Error).message}`);
        }
        const runs = await rowsOf(c, `SELECT run_id, written_at FROM ${alias}.runs`, source);
        const runId = choose(source, runs, ref.runId);
        shards.push({ source, runId });
        for (const table of MERGED_TABLES) {
          const list = storeParts.get(table) ?? [];
          list.push(
            `SELECT ${shard} AS shard, ${columnsOf(table)} FROM ${alias}."${table}" WHERE run_id = ${sqlString(runId)}`,
          );
          storeParts.set(table, list);
        }
        continue;
      }
      const runFiles = await rowsOf(
        c,
        `SELECT run_id, written_at, filename FROM read_parquet(${sqlString(join(resolve(ref.path), 'runs', '*', '*.parquet'))},
           hive_partitioning = true, hive_types = {'run_id': VARCHAR}, filename = true)`,
        source,
      );
      const runId = choose(source, runFiles, ref.runId);
      shards.push({ source, runId });
      const partition = basename(dirname(String(runFiles.find((r) => r.runId === runId)?.filename)));
      for (const table of MERGED_TABLES) {
        const dir = join(resolve(ref.path), table, partition);
        let names: string[];
        try {
          names = readdirSync(dir).filter((n) => n.endsWith('.parquet'));
        } catch {
          names = []; // a table without rows for the run has no directory
        }
        const list = files.get(table) ?? [];
        for (const n of names.sort()) list.push({ file: join(dir, n), shard });
        files.set(table, list);
      }
    }
    for (const table of MERGED_TABLES) {
      const parts = [...(storeParts.get(table) ?? [])];
      const list = files.get(table) ?? [];
      if (list.length > 0) {
        await c.run(`CREATE OR REPLACE TEMP TABLE "_m_files_${table}" (filename VARCHAR, shard INTEGER)`);
        const values = list.map((f) => `(${sqlString(f.file)}, ${f.shard})`).join(', ');
        await c.run(`INSERT INTO "_m_files_${table}" VALUES ${values}`);
        parts.push(
          `SELECT f.shard, ${columnsOf(table, 'p.')}
           FROM read_parquet([${list.map((f) => sqlString(f.file)).join(', ')}],
             hive_partitioning = false, union_by_name = true, filename = true) p
           JOIN "_m_files_${table}" f USING (filename)`,
        );
      }
      if (parts.length === 0)
        parts.push(`SELECT NULL::INTEGER AS shard, ${emptyColumnsOf(table)} WHERE false`);
      await c.run(`CREATE OR REPLACE TEMP VIEW m_${table} AS ${parts.join('\nUNION ALL BY NAME\n')}`);
    }
    return { db, shards };
  } catch (error) {
    db.close();
    throw error;
  }
}

interface RunRow extends StoredRun {
  filename?: unknown;
}

async function rowsOf(c: DuckDBSession['connection'], sql: string, source: string): Promise<RunRow[]> {
  let rows;
  try {
    rows = (await c.runAndReadAll(sql)).getRows();
  } catch (error) {
    throw new MergeError(`${source}: not an evalstream store or Parquet export: ${(error as Error).message}`);
  }
  return rows.map(([id, at, filename]) => ({
    runId: String(id),
    writtenAt: at === null || at === undefined ? null : String(at),
    filename,
  }));
}

function choose(source: string, runs: readonly StoredRun[], requested: string | null): string {
  try {
    return pickStoreRun(source, runs, requested);
  } catch (error) {
    throw new MergeError((error as Error).message);
  }
}

function storeColumns(table: string): readonly { name: string; type: string }[] {
  const t = STORE_TABLES.find((x) => x.name === table);
  if (t === undefined) throw new Error(`no store table ${table}`);
  return t.columns.filter((col) => col.name !== 'run_id');
}

function columnsOf(table: string, prefix = ''): string {
  return storeColumns(table)
    .map((col) => `${prefix}"${col.name}"`)
    .join(', ');
}

function emptyColumnsOf(table: string): string {
  return storeColumns(table)
    .map((col) => `NULL::${col.type.replace(' NOT NULL', '')} AS "${col.name}"`)
    .join(', ');
}
