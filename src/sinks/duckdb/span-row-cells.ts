import { anyValueToJson } from '../../evidence/otlp/any-value-to-json.js';
import type { OtlpAttributes, OtlpSpan } from '../../evidence/otlp/otlp-types.js';
import type { JsonObject } from '../../model/json-value.js';
import type { StoreCell } from './table-buffer.js';
import { toJsonText } from './to-json-text.js';

/** The names the `spans` table stores for OTLP's span kind and status code enums. */
const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUS_CODES = ['unset', 'ok', 'error'];

/**
 * The cells of a `spans` row after (run id, trial ordinal, task id, trial id): span index, ids,
 * name, kind, exact start/end, status, attributes and resource attributes as JSON text, scope name.
 * One definition for the DuckDB sink and the live store. An enum number without a name is stored as
 * its decimal text.
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

/**
 * The attributes as a JSON object's text: keys in order (a repeated key keeps its first place and
 * its last value), each value through `anyValueToJson`, non-finite numbers as `toJsonText` writes them.
 *
 * @example
 * attributesJsonText(span.attributes); // '{"gen_ai.operation.name":"chat","gen_ai.usage.input_tokens":500}'
 */
export function attributesJsonText(attributes: OtlpAttributes): string | null {
  const out: JsonObject = {};
  for (const kv of attributes.entries()) {
    // defined, not assigned: a `__proto__` key is an own property like any other
    Object.defineProperty(out, kv.key, {
      value: anyValueToJson(kv.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return toJsonText(out);
}
