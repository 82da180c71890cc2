import type { TrialDiagnosticRow } from './trial-diagnostic-row.js';

/**
 * A problem with one trial's input that the run went on past, recorded as data beside the trial
 * (`diagnostics.jsonl` in a run bundle, `inspect`, the report's trial table), never in `summary.json`.
 * `code` says what was found: bytes that are not UTF-8 (read with U+FFFD in their place), a token
 * count below zero (left out of every total), an attribute value nested too deep (its value refused,
 * read as empty); `message` what evalstream did about it. Names the file, where in it (1-based `line`
 * and/or byte `offset` in the uncompressed file, null when unknown) and the `field` (a JSON path, or
 * an OTLP span and attribute).
 *
 * @example
 * const d: TrialDiagnostic = {
 *   code: 'negative_token_count', message: 'prompt_tokens is -3: left out of the token totals',
 *   file: 'runs/a.atif.json', line: 12, offset: 311, field: 'steps[1].metrics.prompt_tokens',
 * };
 */
export type TrialDiagnostic = Omit<TrialDiagnosticRow, 'trial_id' | 'task_id'>;
