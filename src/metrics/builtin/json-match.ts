import * as z from 'zod';
import type { JsonValue } from '../../model/json-value.js';
import type { Metric } from '../../model/metric.js';
import { continuousScore } from '../output-specs.js';
import { referenceValue } from './reference-value.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('json_match'),
    referenceKey: z.string().min(1).default('expected'),
    mode: z.enum(['equals', 'contains']).default('equals'),
    stripCodeFence: z.boolean().default(true),
  })
  .strict();

/** Options of {@link jsonMatch}. */
export type JsonMatchOptions = z.input<typeof optionsSchema>;

const FENCE_RE = /^\s*```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)\n?\s*```\s*$/;

/**
 * `json_match`: parses the answer as JSON (a surrounding ```json fence is removed by default) and
 * compares it with the reference `row.data.reference[referenceKey]` (default `expected`, any JSON
 * value). `equals`: deep equality, object key order ignored. `contains`: every key of a reference object
 * is present with a containing value; every element of a reference array is contained in some element
 * of the answer array; scalars are equal. Outputs `score` (1.0/0.0) and `valid_json` (1.0 when the
 * answer parsed, else 0.0 and score 0.0).
 *
 * @example
 * jsonMatch({ mode: 'contains' }); // '{"a":1,"b":2}' vs {a: 1} → score 1.0, valid_json 1.0
 */
export function jsonMatch(options: JsonMatchOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  return {
    type: o.type,
    outputSpec: () => [
      continuousScore('score', { description: `answer JSON ${o.mode} the reference (1.0) or not (0.0)` }),
      continuousScore('valid_json', { description: 'answer parsed as JSON (1.0) or not (0.0)' }),
    ],
    computeScores: async (input) => {
      const ref = referenceValue(input, o.referenceKey);
      const parsed = parseAnswer(input.candidate.output_text, o.stripCodeFence);
      if (parsed === undefined) {
        return {
          outputs: [
            { name: 'score', value: 0.0 },
            { name: 'valid_json', value: 0.0 },
          ],
        };
      }
      const hit = o.mode === 'equals' ? deepEqual(parsed, ref) : containsJson(parsed, ref);
      return {
        outputs: [
          { name: 'score', value: hit ? 1.0 : 0.0 },
          { name: 'valid_json', value: 1.0 },
        ],
      };
    },
  };
}

function parseAnswer(text: string | null, stripFence: boolean): JsonValue | undefined {
  if (text === null) return undefined;
  const fenced = stripFence ? FENCE_RE.exec(text) : null;
  try {
    return JSON.parse(fenced?.[1] ?? text) as JsonValue;
  } catch {
    return undefined;
  }
}

function isObject(v: JsonValue): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepEqual(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => deepEqual(x, b[i] as JsonValue))
    );
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => k in b && deepEqual(a[k] as JsonValue, b[k] as JsonValue))
    );
  }
  return a === b;
}

function containsJson(actual: JsonValue, expected: JsonValue): boolean {
  if (isObject(expected)) {
    return (
      isObject(actual) &&
      Object.entries(expected).every(([k, v]) => k in actual && containsJson(actual[k] as JsonValue, v))
    );
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.every((e) => actual.some((a) => containsJson(a, e)));
  }
  return actual === expected;
}
