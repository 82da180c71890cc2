import * as z from 'zod';
import { PERCENTILE_KEYS, type TaskValueRecord } from '../model/summary.js';
import { decodeTaskValueRecord } from './decode-task-value-record.js';

const nullableFloat = z.number().nullable().default(null);
const int = z.number().int();

const percentilesSchema = z.strictObject(
  Object.fromEntries(PERCENTILE_KEYS.map((k) => [k, z.number()])) as Record<
    (typeof PERCENTILE_KEYS)[number],
    z.ZodNumber
  >,
);

const histogramSchema = z.strictObject({
  bins: z.array(z.strictObject({ lower_bound: z.number(), upper_bound: z.number(), count: int })),
});

const baseShape = {
  name: z.string(),
  count: int.nullable().default(null),
  nan_count: int,
  sum: nullableFloat,
  mean: nullableFloat,
  min: nullableFloat,
  max: nullableFloat,
  median: nullableFloat,
  std_dev: nullableFloat,
  variance: nullableFloat,
  sample_std_dev: nullableFloat,
  sample_variance: nullableFloat,
};

const rangeSchema = z.strictObject({
  ...baseShape,
  score_type: z.literal('range').default('range'),
  percentiles: percentilesSchema.nullable().default(null),
  histogram: histogramSchema.nullable().default(null),
});

const scalarSchema = z.strictObject({ ...baseShape, score_type: z.literal('scalar'), value: z.number() });

const rubricSchema = z.strictObject({
  ...baseShape,
  score_type: z.literal('rubric'),
  rubric_distribution: z.array(
    z.strictObject({
      label: z.string(),
      description: z.string().nullable().default(null),
      value: z.number(),
      count: int.default(0),
    }),
  ),
  mode_category: z.string().nullable().default(null),
});

const aggregateSchema = z.union([rangeSchema, scalarSchema, rubricSchema]);

const coverageSchema = z.strictObject({
  total: int.default(0),
  scored: int.default(0),
  failed: int.default(0),
  missing: int.default(0),
});

const taskValueRecordSchema = z.unknown().transform((raw, ctx): TaskValueRecord => {
  const decoded = decodeTaskValueRecord(raw);
  if (decoded.ok) return decoded.record;
  ctx.issues.push({
    code: 'custom',
    message: decoded.issue.message,
    path: decoded.issue.path,
    input: raw,
    params: { code: decoded.issue.code },
  });
  return z.NEVER;
});

/**
 * zod schema of `summary.json` (the SDK's `AgentEvalSummary`): extra keys are rejected at every
 * level, a missing `task_metric_values` (and any other defaulted field) loads with the SDK default,
 * task value records are decoded (escape tokens → floats, `value_type` derived when absent,
 * inconsistent records rejected), and `error_count` must equal the number of ids in
 * `error_trial_ids`.
 *
 * @example
 * const parsed = summarySchema.safeParse(JSON.parse(text));
 * if (parsed.success) summaryScore(parsed.data, 'harbor_reward.reward');
 */
export const summarySchema = z
  .strictObject({
    scores: z.strictObject({ scores: z.array(aggregateSchema) }).default({ scores: [] }),
    metric_coverage: z.record(z.string(), z.record(z.string(), coverageSchema)).default({}),
    task_metric_values: z
      .record(z.string(), z.record(z.string(), z.array(taskValueRecordSchema)))
      .default({}),
    task_count: int.default(0),
    trial_count: int.default(0),
    score_count: int.default(0),
    error_trial_ids: z.record(z.string(), z.array(z.string())).default({}),
    error_count: int.default(0),
  })
  .superRefine((summary, ctx) => {
    let ids = 0;
    for (const list of Object.values(summary.error_trial_ids)) ids += list.length;
    if (ids !== summary.error_count) {
      ctx.addIssue({
        code: 'custom',
        path: ['error_count'],
        message: `error_count is ${summary.error_count} but error_trial_ids holds ${ids} trial ids`,
      });
    }
  });
