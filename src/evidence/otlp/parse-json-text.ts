import type { JsonValue } from '../../model/json-value.js';

/**
 * Parses a string holding a JSON object, array or string; anything else (other values, text that is
 * not JSON) is returned unchanged. Tool arguments and results are often JSON text inside attributes.
 *
 * @example
 * parseJsonText('{"city":"Paris"}'); // { city: 'Paris' }
 * parseJsonText('sunny'); // 'sunny'
 */
export function parseJsonText(v: JsonValue): JsonValue {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  const c = t.charAt(0);
  if (c !== '{' && c !== '[' && c !== '"') return v;
  try {
    return JSON.parse(t) as JsonValue;
  } catch {
    return v;
  }
}
