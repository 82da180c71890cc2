import type { OtlpSpan } from '../../evidence/otlp/otlp-types.js';
import { attributesJsonText } from './attributes-json-text.js';
import { spanEnumNames } from './span-enum-names.js';
import type { StoreCell } from './table-buffer.js';

/**
 * The cells of a `spans` row after (run id, trial ordinal, task id, trial id): span index, ids,
 * name, kind, exact start/end, status, attributes and resource attributes as JSON text, scope name.
 * One definition for the DuckDB sink and the live store.
 *
 * @example
 * buffer.push([runId, ordinal, taskId, trialId, ...spanRowCells(span, 0)]);
 */
export function spanRowCells(s: OtlpSpan, index: number): StoreCell[] {
  return [
    index,
    s.traceId,
    s.spanId,
    s.parentSpanId === '' ? null : s.parentSpanId,
    s.name,
    spanEnumNames.kind(s.kind),
    s.startTimeUnixNano,
    s.endTimeUnixNano,
    spanEnumNames.status(s.status.code),
    s.status.message === '' ? null : s.status.message,
    attributesJsonText(s.attributes),
    attributesJsonText(s.resource.attributes),
    s.scope.name === '' ? null : s.scope.name,
  ];
}
