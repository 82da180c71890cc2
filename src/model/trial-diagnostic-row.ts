import type { z } from 'zod';
import type { rowSchemas } from '../bundle/row-schemas.js';

/**
 * One line of a run bundle's `diagnostics.jsonl` (the output of `rowSchemas.diagnostic`): a
 * `TrialDiagnostic` with the trial it belongs to.
 *
 * @example
 * const row: TrialDiagnosticRow = {
 *   trial_id: 't1', task_id: 'task-1', code: 'invalid_utf8', message: 'byte 0xff is not UTF-8: read as U+FFFD',
 *   file: 'runs/a.atif.json', line: 17, offset: 402, field: 'steps[1].message',
 * };
 */
export type TrialDiagnosticRow = z.output<typeof rowSchemas.diagnostic>;
