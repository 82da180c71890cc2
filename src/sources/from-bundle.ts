import { join, resolve } from 'node:path';
import { BUNDLE_FILES, requireBundleFile } from '../bundle/bundle-files.js';
import type { BundleIssue } from '../bundle/bundle-read-error.js';
import { forEachDiagnosticRow } from '../bundle/for-each-diagnostic-row.js';
import { readTaskSpecs } from '../bundle/read-task-specs.js';
import { readTrialRows } from '../bundle/read-trial-rows.js';
import { sharedOtlpFileLoader } from '../evidence/otlp/shared-otlp-file-loader.js';
import { CandidateEvidence } from '../evidence/candidate-evidence.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialDiagnostic } from '../model/trial-diagnostic.js';
import type { TrialItem } from '../model/trial-item.js';
import type { Trial } from '../model/trial.js';
import { PullSource } from '../pipeline/pull-source.js';
import { InputError } from './input-error.js';

/** Options of {@link fromBundle}. */
export interface FromBundleOptions {
  /** Receives a cut-off last line of `trials.jsonl` (skipped) instead of erroring. */
  onTruncatedLine?: (issue: BundleIssue) => void;
  /**
   * Receives each row of `diagnostics.jsonl` that belongs to no trial (a problem of the input the
   * bundle was scored from: a payload skipped, spans that joined no trial), as the issue its source
   * reported then; without it they are not read.
   */
  onIssue?: (issue: InputError) => void;
}

/**
 * Emits the trials of a run bundle as `TrialItem`s, in file order: each validated trial (evidence
 * refs resolved against the bundle), its `CandidateEvidence` (relative refs resolve in the bundle),
 * its task spec from `tasks.jsonl` (null when the bundle has none or does not list the task), and
 * its origin (`trials.jsonl` and the 1-based line), and its rows of `diagnostics.jsonl` (read first,
 * when the bundle has one; they are few). Lazy: nothing is read until subscription, and
 * the file is read a 1 MiB chunk at a time as items are consumed; unsubscribing stops reading. Errors
 * with a `BundleReadError` naming file, line and field on the first bad line.
 *
 * @example
 * fromBundle('examples/sparse-run').subscribe((item) => console.log(item.trial.id, item.task?.id));
 */
export function fromBundle(dir: string, options: FromBundleOptions = {}): PullSource<TrialItem> {
  return new PullSource(() => iterateTrialItems(resolve(dir), options));
}

async function* iterateTrialItems(dir: string, options: FromBundleOptions): AsyncGenerator<TrialItem> {
  const file = join(dir, BUNDLE_FILES.trials);
  requireBundleFile(dir, BUNDLE_FILES.trials);
  const specs = await readTaskSpecs(dir);
  const tasks = new Map<string, TaskSpec>((specs ?? []).map((t) => [t.id, t]));
  // the trials' input diagnostics, by task and trial id (the first trial of a pair takes them)
  const diagnostics = new Map<string, TrialDiagnostic[]>();
  await forEachDiagnosticRow(dir, ({ trial_id, task_id, ...d }) => {
    if (trial_id === null || task_id === null) {
      options.onIssue?.(
        new InputError(d.message, {
          file: d.file,
          line: d.line,
          offset: d.offset,
          field: d.field,
          diagnostic: d.code,
        }),
      );
      return;
    }
    const key = `${task_id}\u0000${trial_id}`;
    const list = diagnostics.get(key);
    if (list === undefined) diagnostics.set(key, [d]);
    else list.push(d);
  });
  // trials whose traces are refs into one dump: the dump is read once, not once per trial
  const otlp = sharedOtlpFileLoader();
  const rows = readTrialRows(
    dir,
    options.onTruncatedLine ? { onTruncatedLine: options.onTruncatedLine } : {},
  );
  for await (const batch of rows) {
    for (let i = 0; i < batch.rows.length; i++) {
      const row = batch.rows[i] as Trial;
      const line = batch.lines[i] as number;
      const key = `${row.task_id}\u0000${row.id}`;
      const own = diagnostics.get(key);
      if (own !== undefined) diagnostics.delete(key);
      yield {
        trial: row,
        evidence:
          row.evidence === null
            ? null
            : new CandidateEvidence(row.evidence, { baseDir: dir, traceLoaders: { otlp } }),
        task: tasks.get(row.task_id) ?? null,
        origin: { file, line },
        ...(own === undefined ? {} : { diagnostics: own }),
      };
    }
  }
}
