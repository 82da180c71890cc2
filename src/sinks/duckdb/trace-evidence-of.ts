import type { CandidateEvidence } from '../../evidence/candidate-evidence.js';
import type { OtlpSpan } from '../../evidence/otlp/otlp-types.js';
import type { NormalizedToolCall } from '../../model/trajectory-view.js';
import { spansOfTrace } from './spans-of-trace.js';

/** What the store keeps of a trial's primary trace. */
export interface TraceEvidence {
  toolCalls: NormalizedToolCall[];
  spans: readonly OtlpSpan[];
}

/**
 * The tool calls and spans of a trial's primary trace (`evidence.trace()`: descriptor `trace`), or
 * null when the trial has no readable trace (no evidence, no `trace` descriptor, a format without a
 * handle, a file that fails to load): the store then simply has no rows for it.
 *
 * @example
 * const t = await traceEvidenceOf(item.evidence);
 * t?.toolCalls.map((c) => c.name);
 */
export async function traceEvidenceOf(evidence: CandidateEvidence | null): Promise<TraceEvidence | null> {
  if (evidence === null || evidence.get('trace') === null) return null;
  try {
    const handle = await evidence.trace();
    return { toolCalls: handle.normalizedToolCalls(), spans: spansOfTrace(handle) };
  } catch {
    return null;
  }
}
