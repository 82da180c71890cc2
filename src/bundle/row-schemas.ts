import * as z from 'zod';
import type { JsonObject, JsonValue } from '../model/json-value.js';
import { summarySchema } from '../summary/summary-schema.js';
import type { RunManifest } from './run-manifest.js';

const jsonObject = z.record(z.string(), z.unknown()) as unknown as z.ZodType<JsonObject>;
const jsonValue = z.unknown() as unknown as z.ZodType<JsonValue>;
const nullableString = z.string().nullable().default(null);
const nonEmpty = (what: string) => z.string().min(1, `${what} must not be empty`);

// --- trials (spec §4) ---

const tokenCount = z.number().int().nonnegative().nullable().default(null);
const NUMERIC_STRING = /^\s*[+-]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

const measurementsSchema = z
  .strictObject({
    prompt_tokens: tokenCount,
    completion_tokens: tokenCount,
    total_tokens: tokenCount,
    cache_creation_tokens: tokenCount,
    cache_read_tokens: tokenCount,
    runtime_sec: z.number().nullable().default(null),
    cost_usd: z
      .union([
        z.number(),
        z
          .string()
          .regex(NUMERIC_STRING, 'cost_usd must be a finite number')
          .transform((s) => Number(s.trim().replace(/_/g, '')))
          .pipe(z.number()),
      ])
      .nullable()
      .default(null),
  })
  // absent: every measurement null
  .prefault({});

const descriptorSchema = z
  .strictObject({
    kind: z.string(),
    format: nullableString,
    ref: nullableString,
    data: jsonValue.default(null),
    description: nullableString,
    metadata: jsonObject.default({}),
  })
  .refine((d) => (d.ref !== null && d.ref !== '') || d.data !== null, {
    message: 'an evidence descriptor needs a ref or data',
  });

const evidenceRecordSchema = z.strictObject({
  descriptors: z.record(z.string(), descriptorSchema),
  metadata: jsonObject.default({}),
});
type EvidenceRecord = z.output<typeof evidenceRecordSchema>;

// The SDK accepts a bare name → descriptor map as `descriptors`.
const evidenceSchema = z.unknown().transform((raw, ctx): EvidenceRecord => {
  const isRecord = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'descriptors' in raw;
  const parsed = isRecord
    ? evidenceRecordSchema.safeParse(raw)
    : z.record(z.string(), descriptorSchema).safeParse(raw);
  if (parsed.success) {
    return isRecord
      ? (parsed.data as EvidenceRecord)
      : { descriptors: parsed.data as EvidenceRecord['descriptors'], metadata: {} };
  }
  for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: raw } as never);
  return z.NEVER;
});

const trialSchema = z
  .strictObject({
    id: nonEmpty('trial id'),
    task_id: nonEmpty('trial task_id'),
    status: z.enum(['completed', 'failed', 'partial']),
    output: z
      .strictObject({
        output_text: nullableString,
        response: jsonValue.default(null),
        metadata: jsonObject.default({}),
      })
      .nullable()
      .default(null),
    evidence: evidenceSchema.nullable().default(null),
    error: z
      .strictObject({
        type: z.string().refine((t) => t.trim() !== '', 'trial error type must not be empty'),
        message: nullableString,
        traceback: nullableString,
        occurred_at: nullableString,
      })
      .nullable()
      .default(null),
    measurements: measurementsSchema,
    metadata: jsonObject.default({}),
  })
  .refine((t) => t.status !== 'completed' || t.output !== null, {
    message: 'completed trial requires output',
    path: ['output'],
  });

// --- scores (spec §6) ---

const scoreSchema = z.strictObject({
  id: z.string(),
  run_id: z.string(),
  task_id: z.string(),
  trial_id: z.string(),
  metric_type: z.string(),
  status: z.enum(['completed', 'failed', 'partial']),
  outputs: z.array(z.strictObject({ name: z.string(), value: jsonValue })).default([]),
  diagnostics: z
    .array(
      z.strictObject({
        severity: z.enum(['error', 'warning', 'info']),
        message: z.string(),
        source: nullableString,
        details: jsonObject.default({}),
      }),
    )
    .default([]),
  metadata: jsonObject.default({}),
});

// --- tasks (spec §2) ---

const outputDescriptorSchema = z.strictObject({
  name: nonEmpty('output name'),
  description: nullableString,
  value_schema: z.string(),
  required: z.boolean().optional(),
});

const metricDescriptorSchema = z
  .strictObject({ type: nonEmpty('metric type'), outputs: z.array(outputDescriptorSchema) })
  .superRefine((metric, ctx) => {
    const dup = duplicates(metric.outputs.map((o) => o.name));
    if (dup.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['outputs'],
        message: `duplicate metric output names: ${pyList(dup)}`,
      });
    }
  });

const viewSchema = z.strictObject({
  reducer: z.enum(['single', 'all', 'any', 'mean', 'weighted_mean']),
  signals: z
    .array(
      z.strictObject({
        metric: nonEmpty('view signal metric'),
        output: nonEmpty('view signal output'),
        weight: z.number().nullable().default(null),
      }),
    )
    .min(1, 'a view needs at least one signal'),
});

const taskSchema = z
  .strictObject({
    id: nonEmpty('task id'),
    intent: z.string(),
    inputs: jsonObject,
    reference: jsonObject.default({}),
    metrics: z.array(metricDescriptorSchema),
    views: z.record(z.string(), viewSchema).default({}),
    metadata: jsonObject.default({}),
  })
  .superRefine((task, ctx) => {
    const dup = duplicates(task.metrics.map((m) => m.type));
    if (dup.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['metrics'], message: `duplicate metric types: ${pyList(dup)}` });
    }
    const declared = new Map(task.metrics.map((m) => [m.type, new Set(m.outputs.map((o) => o.name))]));
    for (const [viewName, view] of Object.entries(task.views)) {
      view.signals.forEach((signal, i) => {
        const outputs = declared.get(signal.metric);
        if (outputs === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['views', viewName, 'signals', i, 'metric'],
            message: `view '${viewName}' references metric '${signal.metric}', which task '${task.id}' does not declare`,
          });
        } else if (!outputs.has(signal.output)) {
          ctx.addIssue({
            code: 'custom',
            path: ['views', viewName, 'signals', i, 'output'],
            message: `view '${viewName}' references output '${signal.output}', which metric '${signal.metric}' does not declare`,
          });
        }
      });
    }
  });

// --- metadata.json and run.json (spec §8) ---

const metadataSchema = z.strictObject({
  labels: z.record(z.string(), z.string()).default({}),
  target: z
    .strictObject({
      name: z.string(),
      kind: z.string().default('runner'),
      version: nullableString,
      config: jsonObject.default({}),
    })
    .nullable()
    .default(null),
  started_at: nullableString,
  finished_at: nullableString,
  duration_sec: z.number().nullable().default(null),
  sdk_version: nullableString,
});

// Older manifests also carry output_dir / dashboard_path; unknown keys are kept as written.
const runManifestSchema = z.looseObject({
  run_id: z.string(),
  artifacts: z.record(z.string(), z.string()),
  output_dir: z.string().nullable().optional(),
  dashboard_path: z.string().nullable().optional(),
}) as unknown as z.ZodType<RunManifest, unknown>;

// --- diagnostics.jsonl (evalstream's own file beside the SDK's) ---

const lineOrOffset = z.number().int().nonnegative().nullable();
// a row of no trial (both ids null) is a problem of the input as a whole: a payload skipped, spans or
// log records that joined no trial
const diagnosticSchema = z.strictObject({
  trial_id: z.string().nullable(),
  task_id: z.string().nullable(),
  code: z.enum([
    'invalid_utf8',
    'negative_token_count',
    'nesting_too_deep',
    'skipped_payload',
    'skipped_file',
    'unattached_log_records',
    'invalid_id_spans',
  ]),
  message: z.string(),
  file: z.string(),
  line: lineOrOffset,
  offset: lineOrOffset,
  field: z.string(),
});

/**
 * zod schemas of every file of a run bundle (validation at the edge; extra keys forbidden as in the
 * SDK's pydantic models, defaults filled in as pydantic would). `summary` is the shared summary
 * schema of `src/summary`.
 *
 * @example
 * const parsed = rowSchemas.score.safeParse(JSON.parse(line));
 * if (!parsed.success) console.log(parsed.error.issues[0]?.path);
 */
export const rowSchemas = {
  trial: trialSchema,
  score: scoreSchema,
  task: taskSchema,
  /** One view of a task (also a config's `views`). */
  view: viewSchema,
  metadata: metadataSchema,
  runManifest: runManifestSchema,
  summary: summarySchema,
  diagnostic: diagnosticSchema,
} as const;

function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].sort();
}

function pyList(items: readonly string[]): string {
  return `[${items.map((s) => `'${s}'`).join(', ')}]`;
}
