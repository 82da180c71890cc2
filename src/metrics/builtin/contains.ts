import * as z from 'zod';
import type { Metric } from '../../model/metric.js';
import { continuousScore } from '../output-specs.js';
import { referenceValue } from './reference-value.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('contains'),
    referenceKey: z.string().min(1).default('expected'),
    keywords: z.array(z.string().min(1)).min(1).optional(),
    mode: z.enum(['all', 'any']).default('all'),
    caseSensitive: z.boolean().default(false),
  })
  .strict();

/** Options of {@link contains}. */
export type ContainsOptions = z.input<typeof optionsSchema>;

/**
 * `contains`: keyword check on the answer. Keywords are `options.keywords`, else the reference
 * `row.data.reference[referenceKey]` (default `expected`; a string or a list of strings). Outputs
 * `score` (1.0 when all keywords — or any, with `mode: 'any'` — occur in the answer) and
 * `matched_fraction` (found / total). Case-insensitive by default. No answer → both 0.0.
 *
 * @example
 * contains({ keywords: ['paris', 'france'] }); // 'Paris is in France' → score 1.0, matched_fraction 1.0
 */
export function contains(options: ContainsOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  const fold = (s: string): string => (o.caseSensitive ? s : s.toLowerCase());
  return {
    type: o.type,
    outputSpec: () => [
      continuousScore('score', { description: `answer contains ${o.mode} keywords (1.0) or not (0.0)` }),
      continuousScore('matched_fraction', { description: 'share of keywords found in the answer' }),
    ],
    computeScores: async (input) => {
      const keywords =
        o.keywords ?? keywordsFromReference(referenceValue(input, o.referenceKey), o.referenceKey);
      const answer = fold(input.candidate.output_text ?? '');
      const found = keywords.filter((k) => answer.includes(fold(k))).length;
      const hit = o.mode === 'all' ? found === keywords.length : found > 0;
      return {
        outputs: [
          { name: 'score', value: hit ? 1.0 : 0.0 },
          { name: 'matched_fraction', value: found / keywords.length },
        ],
      };
    },
  };
}

function keywordsFromReference(ref: unknown, key: string): string[] {
  const list = Array.isArray(ref) ? ref : [ref];
  if (list.length === 0 || !list.every((k): k is string => typeof k === 'string' && k.length > 0)) {
    throw new Error(`reference '${key}' must be a non-empty string or a list of non-empty strings`);
  }
  return list;
}
