/**
 * File names of a run bundle (spec §8), keyed as in `run.json`'s `artifacts` map.
 *
 * @example
 * join(dir, BUNDLE_FILES.scores); // '<dir>/scores.jsonl'
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BundleReadError } from './bundle-read-error.js';

export const BUNDLE_FILES = {
  metadata: 'metadata.json',
  tasks: 'tasks.jsonl',
  trials: 'trials.jsonl',
  scores: 'scores.jsonl',
  summary: 'summary.json',
  run: 'run.json',
  report: 'report.html',
} as const;

/**
 * Name of the per-trial diagnostics file in a run bundle (one JSON object per line: `trial_id`,
 * `task_id` and the `TrialDiagnostic`'s fields), written only when a trial has diagnostics. It sits
 * beside the SDK's files, which keep their exact shape.
 *
 * @example
 * join(dir, DIAGNOSTICS_FILE_NAME); // '<dir>/diagnostics.jsonl'
 */
export const DIAGNOSTICS_FILE_NAME = 'diagnostics.jsonl';

/**
 * Throws a `missing_file` `BundleReadError` when the bundle in `dir` has no file `name`.
 *
 * @example
 * requireBundleFile('runs/r1', 'scores.jsonl'); // throws "scores.jsonl: no scores.jsonl in /…/runs/r1" if absent
 */
export function requireBundleFile(dir: string, name: string): void {
  if (existsSync(join(dir, name))) return;
  throw BundleReadError.missingFile(name, `no ${name} in ${dir}`);
}
