import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ScoreRecord } from '../model/score-record.js';
import type { Trial } from '../model/trial.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import { BUNDLE_FILES, requireBundleFile } from './bundle-files.js';
import { forEachDiagnosticRow } from './for-each-diagnostic-row.js';
import { readBundleJson } from './read-bundle-json.js';
import { readScoreRows } from './read-score-rows.js';
import { readTaskSpecs } from './read-task-specs.js';
import { readTrialRows } from './read-trial-rows.js';
import { rowSchemas } from './row-schemas.js';
import type { RunBundle } from './run-bundle.js';
import type { RunManifest } from './run-manifest.js';
import { appendAll } from '../util/append-all.js';

/**
 * Reads a whole run bundle into memory, validating every file (spec §8). Only `scores.jsonl` is
 * required; without `run.json` the manifest is rebuilt from the files present (run id from the first
 * score, else the directory name); `diagnostics.jsonl` is read when present. Throws `BundleReadError`
 * naming file, line and field.
 *
 * @example
 * const bundle = await readBundle('examples/sparse-run');
 * console.log(bundle.manifest.run_id, bundle.scores.length);
 */
export async function readBundle(dir: string): Promise<RunBundle> {
  const abs = resolve(dir);
  requireBundleFile(abs, BUNDLE_FILES.scores);
  const manifest = await readBundleJson(abs, BUNDLE_FILES.run, rowSchemas.runManifest);
  const metadata = await readBundleJson(abs, BUNDLE_FILES.metadata, rowSchemas.metadata);
  const tasks = await readTaskSpecs(abs);
  let trials: Trial[] | null = null;
  if (existsSync(join(abs, BUNDLE_FILES.trials))) {
    trials = [];
    for await (const batch of readTrialRows(abs)) appendAll(trials, batch.rows);
  }
  const scores: ScoreRecord[] = [];
  for await (const batch of readScoreRows(abs)) for (const score of batch.rows) scores.push(score);
  const summary = await readBundleJson(abs, BUNDLE_FILES.summary, rowSchemas.summary);
  const diagnostics: TrialDiagnosticRow[] = [];
  const hasDiagnostics = await forEachDiagnosticRow(abs, (row) => diagnostics.push(row));
  return {
    dir: abs,
    manifest: manifest ?? synthesizeManifest(abs, scores),
    metadata,
    tasks,
    trials,
    scores,
    summary,
    diagnostics: hasDiagnostics ? diagnostics : null,
  };
}

function synthesizeManifest(dir: string, scores: readonly ScoreRecord[]): RunManifest {
  const artifacts: Record<string, string> = {};
  for (const key of ['metadata', 'tasks', 'trials', 'scores', 'summary'] as const) {
    if (existsSync(join(dir, BUNDLE_FILES[key]))) artifacts[key] = BUNDLE_FILES[key];
  }
  return { run_id: scores[0]?.run_id ?? basename(dir), artifacts };
}
