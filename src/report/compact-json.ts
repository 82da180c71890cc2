import type { JsonValue } from '../model/json-value.js';
import { boxNonFinite } from './box-non-finite.js';
import { cutText } from './cut-text.js';

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
