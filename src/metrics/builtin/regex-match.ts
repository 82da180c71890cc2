import * as z from 'zod';
import type { Metric } from '../../model/metric.js';
import { continuousScore } from '../output-specs.js';
import { referenceValue } from './reference-value.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('regex_match'),
    pattern: z.string().min(1).optional(),
    flags: z
      .string()
      .regex(/^[imsu]*$/, 'flags may only use i, m, s, u')
      .default(''),
    referenceKey: z.string().min(1).default('pattern'),
    fullMatch: z.boolean().default(false),
  })
  .strict();

/** Options of {@link regexMatch}. */
export type RegexMatchOptions = z.input<typeof optionsSchema>;

/**
 * `regex_match`: `score` 1.0 when the answer matches a JavaScript regular expression: `options.pattern`,
 * else the reference `row.data.reference[referenceKey]` (default `pattern`). Searches anywhere unless
 * `fullMatch: true`. No answer → 0.0. An invalid `options.pattern` throws at construction; an invalid
 * reference pattern fails that score.
 *
 * @example
 * regexMatch({ pattern: '\\bANSWER:\\s*\\d+', flags: 'i' }); // 'answer: 42' → score 1.0
 */
export function regexMatch(options: RegexMatchOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  const compile = (source: string): RegExp => new RegExp(o.fullMatch ? `^(?:${source})$` : source, o.flags);
  const fixed = o.pattern === undefined ? null : compile(o.pattern);
  return {
    type: o.type,
    outputSpec: () => [
      continuousScore('score', { description: 'answer matches the pattern (1.0) or not (0.0)' }),
    ],
    computeScores: async (input) => {
      let re = fixed;
      if (re === null) {
        const ref = referenceValue(input, o.referenceKey);
        if (typeof ref !== 'string')
          throw new Error(`reference '${o.referenceKey}' must be a string pattern`);
        re = compile(ref);
      }
      const answer = input.candidate.output_text;
      return { outputs: [{ name: 'score', value: answer !== null && re.test(answer) ? 1.0 : 0.0 }] };
    },
  };
}
