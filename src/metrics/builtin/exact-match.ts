import * as z from 'zod';
import type { Metric } from '../../model/metric.js';
import { continuousScore } from '../output-specs.js';
import { referenceValue } from './reference-value.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('exact_match'),
    referenceKey: z.string().min(1).default('expected'),
    caseSensitive: z.boolean().default(true),
    trim: z.boolean().default(true),
    collapseWhitespace: z.boolean().default(false),
  })
  .strict();

/** Options of {@link exactMatch}. */
export type ExactMatchOptions = z.input<typeof optionsSchema>;

/**
 * `exact_match`: `score` 1.0 when the answer (`candidate.output_text`) equals the reference
 * `row.data.reference[referenceKey]` (default `expected`; a string, number, or list of accepted
 * answers), else 0.0 (also when there is no answer). Comparison trims by default; case and inner
 * whitespace are kept unless `caseSensitive: false` / `collapseWhitespace: true`. A missing reference
 * fails the score. Throws a ZodError for bad options.
 *
 * @example
 * exactMatch({ caseSensitive: false }); // 'Paris' vs reference 'paris' → score 1.0
 */
export function exactMatch(options: ExactMatchOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  const normalize = (s: string): string => {
    let t = o.trim ? s.trim() : s;
    if (o.collapseWhitespace) t = t.replace(/\s+/g, ' ');
    return o.caseSensitive ? t : t.toLowerCase();
  };
  return {
    type: o.type,
    outputSpec: () => [
      continuousScore('score', { description: 'answer equals the reference (1.0) or not (0.0)' }),
    ],
    computeScores: async (input) => {
      const ref = referenceValue(input, o.referenceKey);
      const accepted = (Array.isArray(ref) ? ref : [ref]).map((r) =>
        normalize(typeof r === 'string' ? r : JSON.stringify(r)),
      );
      const answer = input.candidate.output_text;
      const hit = answer !== null && accepted.includes(normalize(answer));
      return { outputs: [{ name: 'score', value: hit ? 1.0 : 0.0 }] };
    },
  };
}
