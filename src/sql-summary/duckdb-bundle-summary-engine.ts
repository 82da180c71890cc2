import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { BundleSummaryEngine, BundleSummaryInput } from '../bundle/bundle-summary-engine.js';
import { TaskValueFloatness } from '../bundle/task-value-floatness.js';
import type { JsonObject } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import { appendTrials } from '../sinks/duckdb/append-trials.js';
import { bulkLoadBundle } from '../sinks/duckdb/bulk-load-bundle.js';
import { bundleEvidenceOf } from '../sinks/duckdb/bundle-evidence-of.js';
import type { DuckDBOpenOptions } from '../sinks/duckdb/duckdb-open-options.js';
import { openDuckDB } from '../sinks/duckdb/open-duckdb.js';
import { writeRun } from '../sinks/duckdb/write-run.js';
import { summarizeStoreRun } from './summarize-store-run.js';
import { ColumnarTaskValues } from '../summary/columnar-task-values.js';

/** DuckDB's `memory_limit` when none is given (DuckDB's own default is 80% of the machine's RAM). */
const DEFAULT_MEMORY_LIMIT = '1GB';

/** Options of {@link duckdbBundleSummaryEngine}. */
export interface DuckDBBundleSummaryOptions {
  /**
   * Store file to fill with the run (its rows replaced, spans and tool calls included) and to
   * summarize from. Omitted: an in-memory DuckDB database that spills past its `memory_limit` to a
   * temporary directory, removed after (no database file is written).
   */
  db?: string | undefined;
  /**
   * DuckDB settings, e.g. `{ memoryLimit: '3GB' }`; `memoryLimit` defaults to 1GB, `tempDirectory` as
   * described above (a store file spills next to itself, `<db>.tmp`).
   */
  duckdb?: Omit<DuckDBOpenOptions, 'readOnly'> | undefined;
  /** Run metadata for the store's `runs` row (e.g. `metadata.json`). */
  metadata?: JsonObject | null | undefined;
  /** Where the temporary spill directory is made; default `os.tmpdir()`. */
  tmpDir?: string | undefined;
}

/**
 * The SQL summary engine for run bundles (`--engine duckdb`). `scores.jsonl` (and, without `db`,
 * `trials.jsonl`) reach DuckDB through its own JSON reader (`bulkLoadBundle`: no row passes through
 * JavaScript), `summarizeStoreRun` computes the summary, and the float literals the loader finds
 * make `summary.json` byte-identical to the in-memory engine's. Without `db` the rows stay staged
 * and the summary reads them where they are (no `scores`/`score_outputs` rows are written). With `db`, trials are stored through
 * JavaScript with the spans and tool calls of their evidence. A bundle the bulk loader does not take
 * (a cut-off last line, a malformed row) is streamed through the validating JavaScript reader
 * instead, which reports the problem (or the cut-off line) as the in-memory engine does.
 *
 * @example
 * await summarizeBundle('runs/r1', { summaryEngine: duckdbBundleSummaryEngine({ db: 'runs.duckdb' }) });
 */
export function duckdbBundleSummaryEngine(options: DuckDBBundleSummaryOptions = {}): BundleSummaryEngine {
  return async (input) => {
    const temp =
      options.db === undefined ? await mkdtemp(join(options.tmpDir ?? tmpdir(), 'evalstream-duckdb-')) : null;
    try {
      const duckdb = { ...options.duckdb };
      // bounded by default: past it DuckDB spills joins, sorts and aggregates to disk
      duckdb.memoryLimit ??= DEFAULT_MEMORY_LIMIT;
      if (temp !== null) duckdb.tempDirectory ??= join(temp, 'spill');
      const db = await openDuckDB(options.db ?? ':memory:', duckdb);
      try {
        const connection = db.connection;
        const store = options.db !== undefined;
        const metadata = options.metadata ?? null;
        // trials through JavaScript when the store keeps their evidence's spans and tool calls, or
        // when they come as rows only (a run being written)
        const trialsFile = store ? null : (input.files?.trials ?? null);
        const loaded =
          input.files === undefined
            ? null
            : await bulkLoadBundle(connection, {
                scoresFile: input.files.scores,
                trialsFile,
                runId: input.runId,
                tasks: input.tasks,
                metadata,
                keepJson: store,
                stage: !store,
                beforeCommit: async (runId: string) => {
                  if (trialsFile !== null) return;
                  const evidenceOf = store ? bundleEvidenceOf(input.dir) : undefined;
                  await appendTrials(connection, runId, input.trials, evidenceOf);
                },
              });
        if (loaded !== null) {
          // the staged rows are numbered; every summary step orders by its own keys
          if (loaded.source !== null) await connection.run('SET preserve_insertion_order = false');
          const summary = await summarizeStoreRun(connection, loaded.runId, {
            extraScores: input.extraScores,
            // staged rows tell float literals themselves; a loaded store lists them in a temp table
            floatLiterals: loaded.source === null,
            source: loaded.source ?? undefined,
          });
          const { isFloat } = ColumnarTaskValues.of(summary.task_metric_values) as ColumnarTaskValues;
          return { summary, isFloat, runId: loaded.runId };
        }
        return await streamed(connection, input, metadata, store);
      } finally {
        db.close();
      }
    } finally {
      if (temp !== null) await rm(temp, { recursive: true, force: true });
    }
  };
}

/** The JavaScript path: rows parsed and validated by the bundle readers, appended in chunks. */
async function streamed(
  connection: DuckDBConnection,
  input: BundleSummaryInput,
  metadata: JsonObject | null,
  store: boolean,
): Promise<Awaited<ReturnType<BundleSummaryEngine>>> {
  const floats = new TaskValueFloatness();
  // The first batch decides the run id when run.json did not (as `summarizeBundle` names the run).
  const batches = input.scoreBatches[Symbol.asyncIterator]();
  const first = await batches.next();
  const runId =
    input.runId ?? (first.done === true ? null : first.value.rows[0]?.run_id) ?? basename(input.dir);
  const scores = async function* (): AsyncGenerator<ScoreRecord> {
    for (let b = first; b.done !== true; b = await batches.next()) {
      const { rows, texts } = b.value;
      for (let i = 0; i < rows.length; i++) {
        const score = rows[i] as ScoreRecord;
        floats.addScore(score, undefined, texts[i]);
        yield score;
      }
    }
  };
  await writeRun(connection, {
    runId,
    tasks: input.tasks,
    trials: input.trials,
    scores: scores(),
    metadata,
    ...(store ? { evidenceOf: bundleEvidenceOf(input.dir) } : {}),
  });
  const summary = await summarizeStoreRun(connection, runId, { extraScores: input.extraScores });
  return { summary, isFloat: floats.lookupFor(summary.task_metric_values), runId };
}
