import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { BundleSummaryEngine } from '../bundle/bundle-summary-engine.js';
import { TaskValueFloatness } from '../bundle/task-value-floatness.js';
import type { JsonObject } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import { bundleEvidenceOf } from '../sinks/duckdb/bundle-evidence-of.js';
import type { DuckDBOpenOptions } from '../sinks/duckdb/duckdb-open-options.js';
import { openDuckDB } from '../sinks/duckdb/open-duckdb.js';
import { writeRun } from '../sinks/duckdb/write-run.js';
import { summarizeStoreRun } from './summarize-store-run.js';

/** Options of {@link duckdbBundleSummaryEngine}. */
export interface DuckDBBundleSummaryOptions {
  /**
   * Store file to fill with the run (its rows replaced, spans and tool calls included) and to
   * summarize from. Omitted: a temporary DuckDB file (spilling to a temp dir next to it), removed after.
   */
  db?: string | undefined;
  /** DuckDB settings, e.g. `{ memoryLimit: '3GB' }`; `tempDirectory` defaults as described above. */
  duckdb?: Omit<DuckDBOpenOptions, 'readOnly'> | undefined;
  /** Run metadata for the store's `runs` row (e.g. `metadata.json`). */
  metadata?: JsonObject | null | undefined;
  /** Where the temporary DuckDB directory is made; default `os.tmpdir()`. */
  tmpDir?: string | undefined;
}

/**
 * The SQL summary engine for run bundles (`--engine duckdb`): streams the bundle's scores and trials
 * into DuckDB through the chunked appender (`writeRun`; JavaScript holds one batch of rows at a time),
 * computes the summary with `summarizeStoreRun`, and records from each score line whether its
 * numeric outputs were written as floats (`1.0`) or ints, so `summary.json` comes out byte-identical
 * to the in-memory engine's.
 *
 * @example
 * await summarizeBundle('runs/r1', { summaryEngine: duckdbBundleSummaryEngine({ db: 'runs.duckdb' }) });
 */
export function duckdbBundleSummaryEngine(options: DuckDBBundleSummaryOptions = {}): BundleSummaryEngine {
  return async (input) => {
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
    const temp =
      options.db === undefined ? await mkdtemp(join(options.tmpDir ?? tmpdir(), 'evalstream-duckdb-')) : null;
    try {
      const duckdb = { ...options.duckdb };
      if (temp !== null) duckdb.tempDirectory ??= join(temp, 'spill');
      const db = await openDuckDB(options.db ?? join(temp as string, 'run.duckdb'), duckdb);
      try {
        await writeRun(db.connection, {
          runId,
          tasks: input.tasks,
          trials: input.trials,
          scores: scores(),
          metadata: options.metadata ?? null,
          ...(options.db === undefined ? {} : { evidenceOf: bundleEvidenceOf(input.dir) }),
        });
        const summary = await summarizeStoreRun(db.connection, runId, { extraScores: input.extraScores });
        return { summary, isFloat: floats.lookupFor(summary.task_metric_values) };
      } finally {
        db.close();
      }
    } finally {
      if (temp !== null) await rm(temp, { recursive: true, force: true });
    }
  };
}
