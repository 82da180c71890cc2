/**
 * Python's truthiness of a JSON value (`bigint` = Python int): false for null, false, "", 0, an
 * empty list or dict, and undefined (a missing key).
 *
 * @example
 * pyTruthy([]); // false
 * pyTruthy({ a: 1 }); // true
 */
export function pyTruthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}
