import type { JsonValue } from '../model/json-value.js';
import type { PyJson } from './py-json.js';
import { setOwn } from '../util/set-own.js';

/**
 * Turns a {@link PyJson} value into plain JSON data (`bigint` → `number`), e.g. to hand Gym results to
 * user hooks or to other sinks.
 *
 * @example
 * toPlainJson({ n: 2n }); // { n: 2 }
 */
export function toPlainJson(value: PyJson): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(toPlainJson);
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value)) {
    setOwn(out, k, toPlainJson(v));
  }
  return out;
}
