import * as z from 'zod';
import type { Metric } from '../../model/metric.js';
import type { MetricOutput } from '../../model/score-record.js';
import { MEASUREMENT_KEYS } from '../../model/trial.js';
import { continuousScore, discreteScore } from '../output-specs.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('usage'),
    fields: z
      .array(z.enum(MEASUREMENT_KEYS))
      .min(1)
      .default([...MEASUREMENT_KEYS]),
  })
  .strict();

/** Options of {@link usage}. */
export type UsageOptions = z.input<typeof optionsSchema>;

/**
 * `usage`: the runner's measurements (`row.data.trial.measurements`) as optional outputs of the same
 * names: token counts as discrete scores, `runtime_sec` and `cost_usd` as continuous ones. A measurement
 * that is null (not measured) is omitted, never written as 0; a measured 0 is kept. `fields` picks a
 * subset (default all seven).
 *
 * @example
 * usage({ fields: ['total_tokens', 'cost_usd'] }); // measurements {total_tokens: 120, cost_usd: null} → total_tokens 120
 */
export function usage(options: UsageOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  const fields = MEASUREMENT_KEYS.filter((k) => o.fields.includes(k));
  return {
    type: o.type,
    outputSpec: () =>
      fields.map((k) =>
        k === 'runtime_sec' || k === 'cost_usd'
          ? continuousScore(k, { required: false })
          : discreteScore(k, { required: false }),
      ),
    computeScores: async (input) => {
      const m = input.row.data.trial.measurements;
      const outputs: MetricOutput[] = [];
      for (const k of fields) {
        const v = m[k];
        if (v !== null && v !== undefined) outputs.push({ name: k, value: v });
      }
      return { outputs };
    },
  };
}
