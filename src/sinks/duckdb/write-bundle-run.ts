import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BUNDLE_FILES } from '../../bundle/bundle-files.js';
import { readBundleJson } from '../../bundle/read-bundle-json.js';
import { readScoreRows } from '../../bundle/read-score-rows.js';
import { readTaskSpecs } from '../../bundle/read-task-specs.js';
import { readTrialRows } from '../../bundle/read-trial-rows.js';
import { rowSchemas } from '../../bundle/row-schemas.js';
import type { JsonObject } from '../../model/json-value.js';
import type { ScoreRecord } from '../../model/score-record.js';
import type { Trial } from '../../model/trial.js';
import { bundleEvidenceOf } from './bundle-evidence-of.js';
import type { DuckDBOpenOptions } from './duckdb-open-options.js';
import { openDuckDB } from './open-duckdb.js';
import { writeRun } from './write-run.js';

/** Options of {@link writeBundleRun}. */
export interface WriteBundleRunOptions {
  /** Run id to store under; default `run.json`'s, else the first score's, else the directory name. */
  runId?: string | undefined;
  /** DuckDB settings for opening `file`. */
  duckdb?: Omit<DuckDBOpenOptions, 'readOnly'> | undefined;
}

/**
 * Stores a run bundle (tasks, trials, scores, `metadata.json`, spans and tool calls of each trial's
 * trace) in a DuckDB file, replacing every row the run had there (`writeRun`: idempotent, one
 * transaction). The JSONL files are streamed in batches; a cut-off last line is skipped (the caller
 * that summarized the bundle has reported it).
 *
 * @example
 * await writeBundleRun('runs.duckdb', 'runs/r1'); // → { runId: 'r1', tasks: 1, trials: 3, scores: 8 }
 */
export async function writeBundleRun(
  file: string,
  bundleDir: string,
  options: WriteBundleRunOptions = {},
): Promise<{ runId: string; tasks: number; trials: number; scores: number }> {
  const dir = resolve(bundleDir);
  const manifest = await readBundleJson(dir, BUNDLE_FILES.run, rowSchemas.runManifest);
  const metadata = await readBundleJson(dir, BUNDLE_FILES.metadata, rowSchemas.metadata);
  const tasks = await readTaskSpecs(dir);
  const ignore = (): void => undefined;
  const batches = readScoreRows(dir, { onTruncatedLine: ignore, register: false });
  const first = await batches.next();
  const runId =
    options.runId ??
    manifest?.run_id ??
    (first.done === true ? undefined : first.value.rows[0]?.run_id) ??
    basename(dir);
  const scores = async function* (): AsyncGenerator<ScoreRecord> {
    for (let b = first; b.done !== true; b = await batches.next()) yield* b.value.rows;
  };
  const trials = async function* (): AsyncGenerator<Trial> {
    if (!existsSync(join(dir, BUNDLE_FILES.trials))) return;
    const rows = readTrialRows(dir, { onTruncatedLine: ignore, resolveRefs: false, register: false });
    for await (const batch of rows) yield* batch.rows;
  };
  const db = await openDuckDB(file, options.duckdb ?? {});
  try {
    const counts = await writeRun(db.connection, {
      runId,
      tasks,
      trials: trials(),
      scores: scores(),
      metadata: (metadata as JsonObject | null) ?? null,
      evidenceOf: bundleEvidenceOf(dir),
    });
    return { runId, ...counts };
  } finally {
    db.close();
  }
}
