import type { OtlpSpan } from '../../evidence/otlp/otlp-types.js';
import { attributesJsonText } from './attributes-json-text.js';
import type { StoreCell } from './table-buffer.js';

const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUS_CODES = ['unset', 'ok', 'error'];

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
    SPAN_KINDS[s.kind] ?? String(s.kind),
    s.startTimeUnixNano,
    s.endTimeUnixNano,
    STATUS_CODES[s.status.code] ?? String(s.status.code),
    s.status.message === '' ? null : s.status.message,
    attributesJsonText(s.attributes),
    attributesJsonText(s.resource.attributes),
    s.scope.name === '' ? null : s.scope.name,
  ];
}
