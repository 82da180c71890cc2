import type { ScoreRecord } from '../model/score-record.js';

/**
 * True iff the score is a **trial failure**: status `failed` and some diagnostic carries
 * `details.trial_status === "failed"` (a value match; `"completed"` under that key does not count).
 * Any other failed score is a metric failure.
 *
 * @example
 * isTrialFailure({ ...score, status: 'failed', diagnostics: [{ ...d, details: { trial_status: 'failed' } }] }); // true
 */
export function isTrialFailure(score: Pick<ScoreRecord, 'status' | 'diagnostics'>): boolean {
  if (score.status !== 'failed') return false;
  const diagnostics = score.diagnostics;
  for (let i = 0; i < diagnostics.length; i++) {
    const details = diagnostics[i]?.details;
    if (details !== null && typeof details === 'object' && details['trial_status'] === 'failed') return true;
  }
  return false;
}
