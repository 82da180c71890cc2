import type { BundleIssue } from './bundle-issue.js';
import { BundleReadError } from './bundle-read-error.js';
import { readTrialRows } from './read-trial-rows.js';

/**
 * What the error rollup needs from `trials.jsonl`: the `(id, error.type)` of every trial with an
 * error, in file order (parallel arrays), the cut-off-line warnings, and the issues of the first bad
 * line (`null` when the file is valid). Plain data, so it can cross a worker boundary.
 */
export interface TrialErrors {
  ids: string[];
  types: string[];
  warnings: BundleIssue[];
  issues: BundleIssue[] | null;
}

/**
 * Reads and validates `trials.jsonl` of a bundle (as `readTrialRows` without resolving evidence refs)
 * and keeps only the error rollup. A bad line is returned as `issues` (the `BundleReadError`'s),
 * never thrown; other failures (I/O) throw.
 *
 * @example
 * const { ids, types, issues } = await collectTrialErrors('examples/sparse-run');
 */
export async function collectTrialErrors(dir: string): Promise<TrialErrors> {
  const out: TrialErrors = { ids: [], types: [], warnings: [], issues: null };
  const onTruncatedLine = (issue: BundleIssue): void => {
    out.warnings.push(issue);
  };
  try {
    for await (const batch of readTrialRows(dir, { onTruncatedLine, resolveRefs: false, register: false })) {
      for (const trial of batch.rows) {
        const error = trial.error;
        if (error === null || error === undefined) continue;
        out.ids.push(trial.id);
        out.types.push(error.type);
      }
    }
  } catch (error) {
    if (!(error instanceof BundleReadError)) throw error;
    out.issues = [...error.issues];
  }
  return out;
}
