import type { JsonValue } from '../../model/json-value.js';
import type { OtlpAnyValue } from './otlp-types.js';

/**
 * Converts an attribute value to plain JSON: kvlists become objects, arrays arrays, 64-bit integers
 * numbers when exactly representable (else decimal strings), bytes base64 strings, an empty value null.
 *
 * @example
 * anyValueToJson({ type: 'int', value: 42n }); // 42
 * anyValueToJson({ type: 'int', value: 2n ** 60n }); // '1152921504606846976'
 */
export function anyValueToJson(value: OtlpAnyValue | undefined): JsonValue {
  if (value === undefined) return null;
  switch (value.type) {
    case 'string':
    case 'bool':
    case 'double':
      return value.value;
    case 'int': {
      const n = Number(value.value);
      return Number.isSafeInteger(n) ? n : value.value.toString();
    }
    case 'bytes':
      return Buffer.from(value.value).toString('base64');
    case 'array':
      return value.values.map((v) => anyValueToJson(v));
    case 'kvlist': {
      const out: { [key: string]: JsonValue } = {};
      for (const kv of value.values) out[kv.key] = anyValueToJson(kv.value);
      return out;
    }
    default:
      return null;
  }
}
