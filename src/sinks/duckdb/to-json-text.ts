import type { JsonValue } from '../../model/json-value.js';

/**
 * JSON text for a store `JSON` column: non-finite numbers (which JSON cannot hold) become the strings
 * `"NaN"`, `"Infinity"`, `"-Infinity"` (the SDK's wire escapes); `undefined` becomes SQL NULL.
 *
 * @example
 * toJsonText({ a: NaN }); // '{"a":"NaN"}'
 */
export function toJsonText(value: JsonValue | undefined): string | null {
  if (value === undefined) return null;
  if (typeof value === 'object' && value !== null) {
    // The common empty metadata/diagnostics, without a replacer pass.
    if (Array.isArray(value)) {
      if (value.length === 0) return '[]';
    } else {
      let empty = true;
      for (const _ in value) {
        empty = false;
        break;
      }
      if (empty) return '{}';
    }
  }
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'number' && !Number.isFinite(v)) {
      return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    }
    return v;
  });
}
