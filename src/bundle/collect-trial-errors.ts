import { type BundleIssue, BundleReadError } from './bundle-read-error.js';
import { join } from 'node:path';
import { BUNDLE_FILES } from './bundle-files.js';
import { forEachJsonlRow } from './read-jsonl-rows.js';
import { rowFastChecks } from './row-fast-checks.js';
import { readTrialRows } from './read-trial-rows.js';
import { rowSchemas } from './row-schemas.js';
import type { Trial } from '../model/trial.js';

/**
 * What the error rollup needs from `trials.jsonl`: the `(id, error.type)` of every trial with an
 * error, in file order (parallel arrays), the cut-off-line warnings, and the issues of the first bad
 * line (`null` when the file is valid).
 */
export interface TrialErrors {
  ids: string[];
  types: string[];
  warnings: BundleIssue[];
  issues: BundleIssue[] | null;
}

/**
 * Reads and validates `trials.jsonl` of a bundle (as `readTrialRows` without resolving evidence refs)
 * and keeps only the error rollup; `onTrial`, when given, is handed every trial row first, in file
 * order, and awaited. A bad line is returned as `issues` (the `BundleReadError`'s),
 * never thrown; other failures (I/O) throw.
 *
 * @example
 * const { ids, types, issues } = await collectTrialErrors('examples/sparse-run');
 */
export async function collectTrialErrors(
  dir: string,
  onTrial?: (trial: Trial) => Promise<void>,
): Promise<TrialErrors> {
  const out: TrialErrors = { ids: [], types: [], warnings: [], issues: null };
  const onTruncatedLine = (issue: BundleIssue): void => {
    out.warnings.push(issue);
  };
  const take = (trial: Trial): void => {
    const error = trial.error;
    if (error === null || error === undefined) return;
    out.ids.push(trial.id);
    out.types.push(error.type);
  };
  try {
    if (onTrial === undefined) {
      // as readTrialRows without resolving refs, row by row (each parsed trial is garbage at once)
      const options = {
        displayName: BUNDLE_FILES.trials,
        fastCheck: rowFastChecks.trial,
        onTruncatedLine,
        register: false,
      };
      await forEachJsonlRow(join(dir, BUNDLE_FILES.trials), rowSchemas.trial, options, take);
    } else {
      const rows = readTrialRows(dir, { onTruncatedLine, resolveRefs: false, register: false });
      for await (const batch of rows) {
        for (const trial of batch.rows) {
          await onTrial(trial);
          take(trial);
        }
      }
    }
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    out.issues = [...error.issues];
  }
  return out;
}
