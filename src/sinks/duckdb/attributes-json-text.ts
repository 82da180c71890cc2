import { anyValueToJson } from '../../evidence/otlp/any-value-to-json.js';
import type { OtlpAnyValue, OtlpAttributes } from '../../evidence/otlp/otlp-types.js';
import type { JsonObject } from '../../model/json-value.js';
import { toJsonText } from './to-json-text.js';

/**
 * `toJsonText` of the attributes as an object, the same text built directly: keys in order, each
 * value through `anyValueToJson` rules. Falls back to building the object when the text could differ
 * (a duplicate key, an array-index key, which objects order first, or a value needing the replacer).
 *
 * @example
 * attributesJsonText(span.attributes); // '{"gen_ai.operation.name":"chat","gen_ai.usage.input_tokens":500}'
 */
export function attributesJsonText(attributes: OtlpAttributes): string | null {
  const entries = attributes.entries();
  if (entries.length === 0) return '{}';
  let text = '{';
  const seen = new Set<string>();
  for (const kv of entries) {
    const value = valueJson(kv.value);
    if (value === null || seen.has(kv.key) || INDEX_KEY.test(kv.key)) return attributesObjectJson(entries);
    seen.add(kv.key);
    text += (text.length === 1 ? '' : ',') + JSON.stringify(kv.key) + ':' + value;
  }
  return text + '}';
}

/** Array-index property names (`"0"`, `"17"`): JavaScript objects list them first. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/** JSON text of one attribute value as `anyValueToJson` + `JSON.stringify` give it; null = use the object path. */
function valueJson(value: OtlpAnyValue | undefined): string | null {
  if (value === undefined) return 'null';
  switch (value.type) {
    case 'string':
      return JSON.stringify(value.value);
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'double':
      return Number.isFinite(value.value) ? JSON.stringify(value.value) : null;
    case 'empty':
      return 'null';
    case 'kvlist':
      return null;
    default:
      return isPlain(value) ? JSON.stringify(anyValueToJson(value)) : null;
  }
}

function attributesObjectJson(entries: readonly { key: string; value: OtlpAnyValue }[]): string | null {
  const out: JsonObject = {};
  for (const kv of entries) {
    Object.defineProperty(out, kv.key, {
      value: anyValueToJson(kv.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return toJsonText(out);
}

/** True when JSON.stringify gives the same text as `toJsonText` (no non-finite double inside). */
function isPlain(value: OtlpAnyValue | undefined): boolean {
  if (value === undefined) return true;
  switch (value.type) {
    case 'double':
      return Number.isFinite(value.value);
    case 'array':
      return value.values.every((v) => isPlain(v));
    case 'kvlist':
      return value.values.every((kv) => isPlain(kv.value));
    default:
      return true;
  }
}
