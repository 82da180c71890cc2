import { JsonSpans } from './json-spans.js';
import type { PyJson, PyJsonObject } from './py-json.js';
import { setOwn } from '../util/set-own.js';

/**
 * Python's `json.loads` of a JSON text as {@link PyJson}: ints (`1`, any number of digits) become
 * `bigint`, floats (`1.0`, `1e3`) `number` (keys that look like array indices come first, as in any JavaScript object). `JSON.parse` validates the
 * text (its `SyntaxError` is thrown as is); {@link JsonSpans} gives each number's literal.
 *
 * @example
 * readPyJson('{"n": 2, "mean": 1.0}'); // { n: 2n, mean: 1 }
 */
export function readPyJson(text: string): PyJson {
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object') return pyLiteral(text.trim(), parsed);
  let at = 0;
  while (text.charCodeAt(at) !== 0x7b && text.charCodeAt(at) !== 0x5b) at++;
  return valueAt(text, at, new JsonSpans());
}

/** The Python value of the number literal `literal` (an int as `bigint`, a float as `number`). */
export function pyNumberOfLiteral(literal: string): number | bigint {
  return /[.eE]/.test(literal) ? Number(literal) : BigInt(literal);
}

function pyLiteral(literal: string, parsed: unknown): PyJson {
  return typeof parsed === 'number' ? pyNumberOfLiteral(literal) : (parsed as PyJson);
}

function valueAt(text: string, at: number, spans: JsonSpans): PyJson {
  const c = text.charCodeAt(at);
  if (c === 0x7b) {
    const m = spans.members(text, at);
    const out: PyJsonObject = {};
    for (let k = 0; k < m.length; k += 4) {
      const key = JSON.parse(text.slice(m[k], m[k + 1])) as string;
      const value = valueAt(text, m[k + 2] as number, spans);
      // a repeated key keeps its first position and takes the last value, as in a Python dict
      setOwn(out, key, value);
    }
    return out;
  }
  if (c === 0x5b) {
    const items = spans.items(text, at);
    const out: PyJson[] = [];
    for (let k = 0; k < items.length; k += 2) out.push(valueAt(text, items[k] as number, spans));
    return out;
  }
  const literal = text.slice(at, spans.skipValue(text, at));
  return pyLiteral(literal, JSON.parse(literal));
}
