import type { DuckDBConnection } from '@duckdb/node-api';
import { open } from 'node:fs/promises';
import type { JsonObject } from '../../model/json-value.js';
import type { TaskSpec } from '../../model/task.js';
import type { SummarySource } from '../../sql-summary/summary-sql.js';
import { deleteRunRows, ensureStoreSchema, sqlString } from './store-tables.js';
import { StoreRows } from './store-rows.js';

/** What {@link bulkLoadBundle} loads besides the scores. */
export interface BulkLoadBundleInput {
  /** The score rows (`scores.jsonl`). */
  scoresFile: string;
  /** The trial rows (`trials.jsonl`) to load too; null = none (e.g. the caller stores trials itself). */
  trialsFile: string | null;
  /** Run id to store under; null = the first score's `run_id`. */
  runId: string | null;
  /** Task specs in task-list order (already read and validated); null = no `tasks.jsonl`. */
  tasks: readonly TaskSpec[] | null;
  /** Run metadata for the `runs` row. */
  metadata?: JsonObject | null | undefined;
  /**
   * Keep `scores.diagnostics`/`scores.metadata` and `score_outputs.declared_kind` (a store); false
   * leaves them NULL (a summary only: it reads the declarations from `task_outputs`).
   */
  keepJson: boolean;
  /** Clock for `runs.written_at`. */
  now?: (() => Date) | undefined;
  /** Runs inside the load's transaction before it commits (e.g. to store the trials). */
  beforeCommit?: ((runId: string) => Promise<void>) | undefined;
  /**
   * For a summary only (without `keepJson`): leave the score (and trial) rows staged, with only the
   * columns the summary reads, and write only the run and task rows;
   * the result's `source` names the staged relations for `summarizeStoreRun`. A run in which some
   * (task, trial, metric) repeats is loaded into the tables as without `stage`.
   */
  stage?: boolean | undefined;
}

/** What {@link bulkLoadBundle} loaded. */
export interface BulkLoadBundleResult {
  runId: string;
  tasks: number;
  trials: number;
  scores: number;
  /** Score outputs stored (0 when staged). */
  outputs: number;
  /** With `stage`: the staged rows to summarize (temp views valid on this connection); else null. */
  source: SummarySource | null;
}

const STATUSES = `('completed', 'failed', 'partial')`;

/** Task declaration rows (metrics, outputs, views, signals) buffered before they are appended. */
const TASK_BATCH_ROWS = 50_000;

/** A summary-only stage: the staged score rows keep only the columns the summary reads. */
function isLean(input: BulkLoadBundleInput): boolean {
  return input.stage === true && !input.keepJson;
}

/** Whether a staged score's diagnostics (without `keepJson`) say its trial failed. */
const TRIAL_FAILED_STAGED = `list_contains(list_transform(diagnostics, d -> d.details.trial_status::VARCHAR), '"failed"')`;

/** The columns read from `scores.jsonl`: a store keeps diagnostics and metadata as JSON. */
function scoreColumns(keepJson: boolean): string {
  const extra = keepJson
    ? `diagnostics: 'JSON', metadata: 'JSON'`
    : `diagnostics: 'STRUCT(details STRUCT(trial_status JSON))[]'`;
  return `{id: 'VARCHAR', run_id: 'VARCHAR', task_id: 'VARCHAR', trial_id: 'VARCHAR', metric_type: 'VARCHAR',
    status: 'VARCHAR', outputs: 'STRUCT(name VARCHAR, value JSON)[]', ${extra}}`;
}

/** The columns read from `trials.jsonl` (a summary needs ids, status and error only). */
function trialColumns(keepJson: boolean): string {
  return keepJson
    ? `{id: 'VARCHAR', task_id: 'VARCHAR', status: 'VARCHAR', output: 'JSON', evidence: 'JSON', error: 'JSON',
        measurements: 'JSON', metadata: 'JSON'}`
    : `{id: 'VARCHAR', task_id: 'VARCHAR', status: 'VARCHAR', output: 'STRUCT(output_text VARCHAR)', error: 'JSON'}`;
}

/**
 * Loads a run bundle's `scores.jsonl` (and `trials.jsonl`) into the store with DuckDB's own JSON
 * reader (`read_ndjson` with explicit columns): no row passes through JavaScript. Numbers keep what
 * exactness needs: the value is cast from its literal (`NaN`, `Infinity`, `-Infinity` as the SDK
 * writes them), and the temp table `_es_float_lit (score_ordinal, output_name)` lists the first
 * outputs whose integral value was written as a float literal (`1.0`: JSON number type is kept),
 * so `summary.json` writes them back as the in-memory engine does. Replaces every row the run had.
 *
 * Returns null, having changed nothing, when the files are not plain well-formed SDK rows: a file
 * ending in a cut-off line, a line DuckDB cannot read, a missing or mistyped field the summary reads,
 * an unknown status. The caller then loads through the validating JavaScript reader, which reports
 * the problem with file, line and field. The files are staged in temp tables first (committed, so
 * that `rowid` is each row's position in its file), then the run is replaced in one transaction.
 *
 * @example
 * const loaded = await bulkLoadBundle(connection, {
 *   scoresFile: 'runs/r1/scores.jsonl', trialsFile: 'runs/r1/trials.jsonl', runId: null, tasks, keepJson: false,
 * });
 * // → { runId: 'r1', tasks: 3, trials: 12, scores: 48, outputs: 90 } or null
 */
export async function bulkLoadBundle(
  connection: DuckDBConnection,
  input: BulkLoadBundleInput,
): Promise<BulkLoadBundleResult | null> {
  const { scoresFile, trialsFile } = input;
  if (!(await endsInNewline(scoresFile)) || (trialsFile !== null && !(await endsInNewline(trialsFile))))
    return null;
  await ensureStoreSchema(connection);
  let staged = false;
  try {
    const result = await load(connection, input, scoresFile, trialsFile);
    staged = result?.source != null;
    return result;
  } catch (error) {
    // DuckDB cannot read a line (malformed JSON, a mistyped column): the JavaScript reader says where
    if (error instanceof Error && /^(Invalid Input|Conversion) Error:/.test(error.message)) return null;
    throw error;
  } finally {
    if (!staged) {
      await connection.run('DROP TABLE IF EXISTS _es_load_scores');
      await connection.run('DROP TABLE IF EXISTS _es_load_trials');
    }
  }
}

async function load(
  connection: DuckDBConnection,
  input: BulkLoadBundleInput,
  scoresFile: string,
  trialsFile: string | null,
): Promise<BulkLoadBundleResult | null> {
  const one = async (sql: string): Promise<unknown> =>
    (await connection.runAndReadAll(sql)).getRows()[0]?.[0];
  const lean = isLean(input);
  // rowid of a freshly created table is the line's position among the file's rows (insertion order
  // is preserved), i.e. the SDK score order; a summary-only stage keeps only what the summary reads
  const columns = `columns = ${scoreColumns(input.keepJson)}`;
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE _es_load_scores AS ${
      lean
        ? `SELECT task_id, trial_id, metric_type, status, outputs,
             id IS NULL OR run_id IS NULL OR diagnostics IS NULL AS bad_fields,
             status = 'failed' AND ${TRIAL_FAILED_STAGED} AS is_trial_failure`
        : 'SELECT *'
    } FROM read_ndjson(${sqlString(scoresFile)}, ${columns})`,
  );
  // one scan: rows the summary cannot use, and whether any (task, trial, metric) may repeat (only
  // then are occurrences numbered by a window over the whole file; equal hashes count as repeats)
  const [bad, repeated] = (
    await connection.runAndReadAll(`SELECT count(*) FILTER (WHERE
      task_id IS NULL OR trial_id IS NULL OR metric_type IS NULL
      OR status IS NULL OR status NOT IN ${STATUSES} OR outputs IS NULL
      OR len(list_filter(outputs, o -> o.name IS NULL)) > 0
      OR ${
        lean
          ? 'bad_fields'
          : `id IS NULL OR run_id IS NULL OR diagnostics IS NULL ${
              input.keepJson
                ? `OR json_type(diagnostics) <> 'ARRAY' OR metadata IS NULL OR json_type(metadata) <> 'OBJECT'`
                : ''
            }`
      }), count(*) > count(DISTINCT hash(task_id, trial_id, metric_type)) FROM _es_load_scores`)
  ).getRows()[0] ?? [0, false];
  if (Number(bad) > 0) return null;
  if (trialsFile !== null) {
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE _es_load_trials AS
       SELECT * FROM read_ndjson(${sqlString(trialsFile)}, columns = ${trialColumns(input.keepJson)})`,
    );
    const badTrials = await one(`SELECT count(*) FROM _es_load_trials WHERE
        id IS NULL OR id = '' OR task_id IS NULL OR task_id = '' OR status IS NULL OR status NOT IN ${STATUSES}
        OR (error IS NOT NULL AND (json_type(error) <> 'OBJECT' OR json_type(error, '$.type') IS DISTINCT FROM 'VARCHAR'
                                   OR trim(error->>'$.type') = ''))
        OR (status = 'completed' AND output IS NULL)`);
    if (Number(badTrials) > 0) return null;
  }
  const runId =
    input.runId ??
    ((await one(
      lean
        ? `SELECT run_id FROM read_ndjson(${sqlString(scoresFile)}, ${columns}) LIMIT 1`
        : 'SELECT run_id FROM _es_load_scores WHERE rowid = 0',
    )) as string | undefined);
  if (runId === undefined) return null;

  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await replaceRun(connection, input, runId, trialsFile !== null, repeated === true);
    await input.beforeCommit?.(runId);
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Replaces the run's rows with the staged ones (inside the caller's transaction). */
async function replaceRun(
  connection: DuckDBConnection,
  input: BulkLoadBundleInput,
  runId: string,
  withTrials: boolean,
  repeated: boolean,
): Promise<BulkLoadBundleResult> {
  const one = async (sql: string): Promise<unknown> =>
    (await connection.runAndReadAll(sql)).getRows()[0]?.[0];
  const run = { run: runId };
  await deleteRunRows(connection, runId);
  const rows = new StoreRows(runId);
  rows.addRun(input.tasks !== null, input.metadata ?? null, (input.now?.() ?? new Date()).toISOString());
  let taskOrdinal = 0;
  // a summary only reads the declarations, not the task rows' JSON; appended in batches, so that
  // the rows of many tasks are never all held at once
  for (const task of input.tasks ?? []) {
    rows.addTask(taskOrdinal++, task, !isLean(input));
    if (rows.rowCount >= TASK_BATCH_ROWS) await rows.appendTo(connection);
  }
  await rows.appendTo(connection);
  const scores = async (): Promise<number> => Number(await one('SELECT count(*) FROM _es_load_scores'));
  if (isLean(input) && !repeated) {
    const source = await stagedSource(connection, runId, withTrials);
    const trials = withTrials ? Number(await one('SELECT count(*) FROM _es_load_trials')) : 0;
    return { runId, tasks: taskOrdinal, trials, scores: await scores(), outputs: 0, source };
  }

  const json = (column: string): string => (input.keepJson ? column : 'NULL');
  await connection.run(
    `INSERT INTO scores
     SELECT $run, rowid, ${isLean(input) ? 'NULL' : 'id'}, task_id, trial_id, metric_type,
       ${repeated ? 'row_number() OVER (PARTITION BY task_id, trial_id, metric_type ORDER BY rowid)' : '1'},
       status,
       ${
         isLean(input)
           ? 'is_trial_failure'
           : `status = 'failed' AND ${
               input.keepJson
                 ? `list_contains(json_extract_string(diagnostics, '$[*].details.trial_status'), 'failed')`
                 : TRIAL_FAILED_STAGED
             }`
       },
       len(outputs), ${json('diagnostics')}, ${json('metadata')}
     FROM _es_load_scores`,
    run,
  );
  // outputs unnested straight from the staged rows (their occurrence from `scores` only when some
  // (task, trial, metric) repeats); the declared kind of an output: the last spec of a task id, the
  // first declaration within it
  await connection.run(
    `INSERT INTO score_outputs
     WITH kinds AS (
       SELECT o.task_id, o.metric_type, o.output_name, arg_min(o.kind, (o.metric_ordinal, o.output_ordinal)) AS kind
       FROM task_outputs o
       WHERE o.run_id = $run AND o.task_ordinal = (
         SELECT max(t.task_ordinal) FROM tasks t WHERE t.run_id = $run AND t.task_id = o.task_id)
       GROUP BY ALL),
     x AS (
       SELECT l.rowid AS score_ordinal, l.task_id, l.trial_id, ${repeated ? 's.occurrence' : '1'} AS occurrence,
         l.metric_type, list_transform(l.outputs, o -> o.name) AS names,
         unnest(l.outputs) AS o, generate_subscripts(l.outputs, 1) AS i
       FROM _es_load_scores l ${repeated ? 'JOIN scores s ON s.run_id = $run AND s.score_ordinal = l.rowid' : ''}),
     y AS (SELECT *, json_type(o.value) AS jt FROM x)
     SELECT $run, y.score_ordinal, y.task_id, y.trial_id, y.occurrence, y.metric_type,
       (y.i - 1)::INTEGER AS output_ordinal, y.o.name AS output_name, list_position(y.names, y.o.name) = y.i AS is_first,
       ${input.keepJson ? 'k.kind' : 'NULL'} AS declared_kind,
       CASE WHEN y.jt IN ('DOUBLE', 'BIGINT', 'UBIGINT', 'HUGEINT') THEN 'number' WHEN y.jt = 'BOOLEAN' THEN 'boolean'
            WHEN y.jt = 'VARCHAR' THEN 'string' WHEN y.jt = 'ARRAY' THEN 'array' WHEN y.jt = 'OBJECT' THEN 'object'
            ELSE 'null' END AS value_type,
       CASE WHEN y.jt IN ('DOUBLE', 'BIGINT', 'UBIGINT', 'HUGEINT') THEN CAST(y.o.value::VARCHAR AS DOUBLE)
            WHEN y.jt = 'BOOLEAN' THEN CASE WHEN y.o.value::VARCHAR = 'true' THEN 1::DOUBLE ELSE 0::DOUBLE END
       END AS num_value,
       CASE WHEN y.jt = 'VARCHAR' THEN y.o.value->>'$' END AS label_value,
       CASE WHEN y.jt IN ('ARRAY', 'OBJECT') THEN y.o.value END AS json_value
     FROM y ${
       input.keepJson
         ? 'LEFT JOIN kinds k ON k.task_id = y.task_id AND k.metric_type = y.metric_type AND k.output_name = y.o.name'
         : ''
     }`,
    run,
  );
  // first outputs of non-failed scores whose integral value was written as a float literal (`1.0`,
  // `1e2`): the only ones whose JSON type the double cannot tell
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE _es_float_lit AS
     WITH x AS (SELECT rowid AS score_ordinal, list_transform(outputs, o -> o.name) AS names,
                  unnest(outputs) AS o, generate_subscripts(outputs, 1) AS i
                FROM _es_load_scores WHERE status <> 'failed'),
     y AS (SELECT score_ordinal, o.name AS output_name, o.value::VARCHAR AS text, list_position(names, o.name) = i AS is_first
           FROM x WHERE json_type(o.value) = 'DOUBLE'),
     z AS (SELECT score_ordinal, output_name, CAST(text AS DOUBLE) AS v FROM y
           WHERE is_first AND regexp_matches(text, '[.eE]'))
     SELECT score_ordinal, output_name FROM z WHERE isfinite(v) AND v = trunc(v)`,
  );
  let trials = 0;
  if (withTrials) {
    await connection.run(
      input.keepJson
        ? `INSERT INTO trials
           SELECT $run, rowid, id, task_id, status, output->>'$.output_text', coalesce(output, 'null'),
             coalesce(evidence, 'null'), error->>'$.type', coalesce(error, 'null'),
             TRY_CAST(measurements->>'$.prompt_tokens' AS BIGINT),
             TRY_CAST(measurements->>'$.completion_tokens' AS BIGINT),
             TRY_CAST(measurements->>'$.total_tokens' AS BIGINT),
             TRY_CAST(measurements->>'$.cache_creation_tokens' AS BIGINT),
             TRY_CAST(measurements->>'$.cache_read_tokens' AS BIGINT),
             TRY_CAST(measurements->>'$.runtime_sec' AS DOUBLE), TRY_CAST(measurements->>'$.cost_usd' AS DOUBLE),
             coalesce(metadata, '{}')
           FROM _es_load_trials`
        : `INSERT INTO trials (run_id, trial_ordinal, trial_id, task_id, status, output_text, error_type, error)
           SELECT $run, rowid, id, task_id, status, output.output_text, error->>'$.type', error
           FROM _es_load_trials`,
      run,
    );
    trials = Number(await one('SELECT count(*) FROM _es_load_trials'));
  }
  const outputs = Number(await one(`SELECT count(*) FROM score_outputs WHERE run_id = ${sqlString(runId)}`));
  return { runId, tasks: taskOrdinal, trials, scores: await scores(), outputs, source: null };
}

/**
 * Temp views with the columns of `scores` (plus each score's `outputs` list) and `trials` the
 * summary reads, over the staged rows; trials from the `trials` table when none were staged.
 */
async function stagedSource(
  connection: DuckDBConnection,
  runId: string,
  withTrials: boolean,
): Promise<SummarySource> {
  await connection.run(
    `CREATE OR REPLACE TEMP VIEW _es_staged_scores AS
     SELECT ${sqlString(runId)} AS run_id, rowid AS score_ordinal, task_id, trial_id, metric_type, 1 AS occurrence,
       status, is_trial_failure, outputs
     FROM _es_load_scores`,
  );
  const release = ['DROP VIEW IF EXISTS _es_staged_scores', 'DROP TABLE IF EXISTS _es_load_scores'];
  if (!withTrials) return { scores: '_es_staged_scores', trials: 'trials', staged: true, release };
  await connection.run(
    `CREATE OR REPLACE TEMP VIEW _es_staged_trials AS
     SELECT ${sqlString(runId)} AS run_id, rowid AS trial_ordinal, id AS trial_id, error->>'$.type' AS error_type
     FROM _es_load_trials`,
  );
  return {
    scores: '_es_staged_scores',
    trials: '_es_staged_trials',
    staged: true,
    release: [...release, 'DROP VIEW IF EXISTS _es_staged_trials', 'DROP TABLE IF EXISTS _es_load_trials'],
  };
}

/** Whether a file is empty or ends in a newline (else its last line may be cut off). */
async function endsInNewline(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
