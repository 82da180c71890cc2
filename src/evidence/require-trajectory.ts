import type { TrajectoryView } from '../model/trajectory-view.js';
import type { CandidateEvidence } from './candidate-evidence.js';
import { EvidenceKeyError } from './evidence-key-error.js';

/**
 * The primary trace (`trace` key) of a trial as a `TrajectoryView`, for trajectory metrics. Throws
 * `EvidenceKeyError` ("missing evidence descriptor 'trace'") when the trial has no evidence or no trace,
 * so the score is recorded as failed with that reason.
 *
 * @example
 * const view = await requireTrajectory(input.candidate.evidence);
 * const calls = view.normalizedToolCalls();
 */
export async function requireTrajectory(
  evidence: CandidateEvidence | null,
  name = 'trace',
): Promise<TrajectoryView> {
  if (evidence === null) throw new EvidenceKeyError(`missing evidence descriptor '${name}'`, name);
  return evidence.trace(name);
}
