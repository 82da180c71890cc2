import type { JsonValue } from '../model/json-value.js';

/**
 * Whether two JSON values are the same value: what `JSON.stringify` with every object's keys sorted
 * would print the same (objects with the same keys and the same values under them, in any order;
 * arrays element by element; `0` and `-0` alike, and NaN, ±Infinity and null alike, as the text
 * prints them), without printing them.
 *
 * @example
 * sameJson({ path: 'a', n: 1 }, { n: 1, path: 'a' }); // true
 * sameJson([1, 2], [2, 1]); // false
 */
export function sameJson(x: JsonValue, y: JsonValue): boolean {
  const a = typeof x === 'number' && !Number.isFinite(x) ? null : x;
  const b = typeof y === 'number' && !Number.isFinite(y) ? null : y;
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameJson(a[i] as JsonValue, b[i] as JsonValue)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    if (!Object.hasOwn(b, k) || !sameJson(a[k] as JsonValue, b[k] as JsonValue)) return false;
  }
  return true;
}
