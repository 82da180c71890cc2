import type { TrialDiagnostic } from './trial-diagnostic.js';

/**
 * One line of a run bundle's `diagnostics.jsonl`: a {@link TrialDiagnostic} with the trial it
 * belongs to.
 *
 * @example
 * const row: TrialDiagnosticRow = {
 *   trial_id: 't1', task_id: 'task-1', code: 'invalid_utf8', message: 'byte 0xff is not UTF-8: read as U+FFFD',
 *   file: 'runs/a.atif.json', line: 17, offset: 402, field: 'steps[1].message',
 * };
 */
export interface TrialDiagnosticRow extends TrialDiagnostic {
  trial_id: string;
  task_id: string;
}
