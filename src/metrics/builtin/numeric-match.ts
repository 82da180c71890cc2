import * as z from 'zod';
import type { Metric, MetricResult } from '../../model/metric.js';
import { continuousScore } from '../output-specs.js';
import { referenceValue } from './reference-value.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('numeric_match'),
    referenceKey: z.string().min(1).default('expected'),
    absTol: z.number().nonnegative().default(1e-6),
    relTol: z.number().nonnegative().default(0),
    extract: z.enum(['last', 'first', 'whole']).default('last'),
  })
  .strict();

/** Options of {@link numericMatch}. */
export type NumericMatchOptions = z.input<typeof optionsSchema>;

// A decimal number, optionally signed, with `,` thousands separators, a fraction and an exponent.
const NUMBER_RE = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?/g;

function toNumber(text: string): number {
  return Number(text.replaceAll(',', ''));
}

function extractNumber(text: string, how: 'last' | 'first' | 'whole'): number | null {
  if (how === 'whole') {
    const t = text.trim();
    const m = t.match(NUMBER_RE);
    return m !== null && m.length === 1 && m[0] === t ? toNumber(t) : null;
  }
  const all = text.match(NUMBER_RE);
  if (all === null) return null;
  return toNumber((how === 'first' ? all[0] : all[all.length - 1]) as string);
}

/**
 * `numeric_match`: reads a number from the answer (the `last` one by default, or `first`, or the
 * `whole` answer) and compares it with the reference `row.data.reference[referenceKey]` (default
 * `expected`; a number or numeric string): `score` 1.0 when |answer − reference| ≤
 * max(absTol, relTol·|reference|) (defaults 1e-6 and 0). `abs_error` (optional) is |answer − reference|,
 * omitted when the answer holds no number (score 0.0). `1,234` reads as 1234.
 *
 * @example
 * numericMatch({ relTol: 0.01 }); // 'about 99.5 km' vs 100 → score 1.0, abs_error 0.5
 */
export function numericMatch(options: NumericMatchOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  return {
    type: o.type,
    outputSpec: () => [
      continuousScore('score', {
        description: 'answer number within tolerance of the reference (1.0) or not (0.0)',
      }),
      continuousScore('abs_error', {
        required: false,
        description: '|answer - reference|; absent when no number',
      }),
    ],
    computeScores: async (input): Promise<MetricResult> => {
      const ref = referenceValue(input, o.referenceKey);
      const expected =
        typeof ref === 'number' ? ref : typeof ref === 'string' ? extractNumber(ref, 'whole') : null;
      if (expected === null || !Number.isFinite(expected)) {
        throw new Error(`reference '${o.referenceKey}' is not a number: ${JSON.stringify(ref)}`);
      }
      const answer = input.candidate.output_text;
      const got = answer === null ? null : extractNumber(answer, o.extract);
      if (got === null) return { outputs: [{ name: 'score', value: 0.0 }] };
      const error = Math.abs(got - expected);
      const hit = error <= Math.max(o.absTol, o.relTol * Math.abs(expected));
      return {
        outputs: [
          { name: 'score', value: hit ? 1.0 : 0.0 },
          { name: 'abs_error', value: error },
        ],
      };
    },
  };
}
