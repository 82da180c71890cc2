/**
 * Name of the per-trial diagnostics file in a run bundle (one JSON object per line: `trial_id`,
 * `task_id` and the `TrialDiagnostic`'s fields), written only when a trial has diagnostics. It sits
 * beside the SDK's files, which keep their exact shape.
 *
 * @example
 * join(dir, DIAGNOSTICS_FILE_NAME); // '<dir>/diagnostics.jsonl'
 */
export const DIAGNOSTICS_FILE_NAME = 'diagnostics.jsonl';
