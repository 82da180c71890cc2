import type { OtlpSpan } from './otlp-types.js';

/**
 * Whether a span marks the end of a trial: a root span (no parent, or a configured marker attribute
 * present) that is an agent invocation (`gen_ai.operation.name = invoke_agent`, a name starting with
 * `invoke_agent`, or OpenInference `openinference.span.kind = AGENT`). OTel exports a span only
 * once it has ended, so seeing it means it has ended.
 *
 * @example
 * isTrialEndSpan(span, 'evalstream.trial.end'); // true for the trial's root invoke_agent span
 */
export function isTrialEndSpan(span: OtlpSpan, endMarkerAttribute: string | null): boolean {
  if (
    endMarkerAttribute !== null &&
    (span.attributes.has(endMarkerAttribute) || span.resource.attributes.has(endMarkerAttribute))
  ) {
    return true;
  }
  if (span.parentSpanId !== '') return false;
  if (span.attributes.getString('gen_ai.operation.name') === 'invoke_agent') return true;
  if (span.name.startsWith('invoke_agent')) return true;
  return span.attributes.getString('openinference.span.kind')?.toUpperCase() === 'AGENT';
}
