import type { JsonValue } from '../model/json-value.js';

/** A plain object (not an array, not null). */
export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string, else null. */
export const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** A finite number, else null. */
export const numOrNull = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/** An empty object, empty array, null or undefined (left out of the embed). */
export function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * Cuts a string to `max` characters, marking the cut (never splits a surrogate pair).
 *
 * @example
 * cutText('abcdef', 3); // 'abc… [+3 chars]'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [+${text.length - end} chars]`;
}

/**
 * Boxes NaN/±Infinity for strict JSON.
 *
 * @example
 * boxNonFinite(-Infinity); // { $nf: '-Infinity' }
 */
export function boxNonFinite(value: number): { $nf: string } {
  return { $nf: Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity' };
}

/** Limits for {@link compactJson}. */
export interface CompactJsonLimits {
  /** Longest string kept; longer ones are cut and end in `… [+N chars]`. */
  maxText: number;
  /** Most array items kept; the rest become one `… [+N items]` string. Default 200. */
  maxItems?: number;
  /** Deepest nesting kept; deeper values become `… [depth limit]`. Default 16. */
  maxDepth?: number;
}

/**
 * A copy of a JSON value that is safe to embed as strict JSON and small enough for a report: long
 * strings and arrays are cut with a visible marker, non-finite numbers are boxed as
 * `{"$nf": "NaN" | "Infinity" | "-Infinity"}`, `undefined` becomes null.
 *
 * @example
 * compactJson({ a: 'x'.repeat(10), b: NaN }, { maxText: 4 }); // { a: 'xxxx… [+6 chars]', b: { $nf: 'NaN' } }
 */
export function compactJson(value: unknown, limits: CompactJsonLimits): JsonValue {
  const maxItems = limits.maxItems ?? 200;
  const maxDepth = limits.maxDepth ?? 16;
  const walk = (v: unknown, depth: number): JsonValue => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'string') return cutText(v, limits.maxText);
    if (typeof v === 'number') return Number.isFinite(v) ? v : boxNonFinite(v);
    if (typeof v === 'boolean') return v;
    if (typeof v === 'bigint') return v.toString();
    if (depth >= maxDepth) return '… [depth limit]';
    if (Array.isArray(v)) {
      const kept = v.slice(0, maxItems).map((item) => walk(item, depth + 1));
      if (v.length > maxItems) kept.push(`… [+${v.length - maxItems} items]`);
      return kept;
    }
    if (typeof v === 'object') {
      const out: { [key: string]: JsonValue } = {};
      for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
        if (item !== undefined) out[key] = walk(item, depth + 1);
      }
      return out;
    }
    return String(v);
  };
  return walk(value, 0);
}
