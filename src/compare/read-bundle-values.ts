import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUNDLE_FILES } from '../bundle/bundle-files.js';
import { BundleReadError } from '../bundle/bundle-read-error.js';
import { forEachDiagnosticRow } from '../bundle/for-each-diagnostic-row.js';
import { readBundleJson } from '../bundle/read-bundle-json.js';
import { rowSchemas } from '../bundle/row-schemas.js';
import type { Summary } from '../model/summary.js';
import type { RunValues } from './run-values.js';
import { summaryValues } from './summary-values.js';

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
