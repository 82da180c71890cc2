import type { PyJson } from './py-json.js';
import { setOwn } from '../util/set-own.js';

/**
 * Turns plain JavaScript data returned by a user hook into {@link PyJson}: integral numbers become
 * ints (as `JSON.stringify` would write them), other numbers floats; `undefined` members are dropped.
 *
 * @example
 * fromPlainJson({ a: 1, b: 0.5 }); // { a: 1n, b: 0.5 }
 */
export function fromPlainJson(value: unknown): PyJson {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value === 'bigint' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(fromPlainJson);
  if (typeof value === 'object') {
    const out: { [key: string]: PyJson } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== undefined) setOwn(out, k, fromPlainJson(v));
    }
    return out;
  }
  return String(value);
}
