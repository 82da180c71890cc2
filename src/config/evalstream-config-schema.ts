import * as z from 'zod';
import type { Metric } from '../model/metric.js';
import { rowSchemas } from '../bundle/row-schemas.js';
import { builtinRegistry } from '../metrics/builtin-registry.js';
import { toMetricDescriptor } from '../metrics/to-metric-descriptor.js';

type Ctx = z.core.$RefinementCtx<unknown>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function buildBuiltin(
  name: string,
  options: Record<string, unknown>,
  ctx: Ctx,
  at: (string | number)[],
): Metric {
  const entry = Object.hasOwn(builtinRegistry, name) ? builtinRegistry[name] : undefined;
  if (entry === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown built-in metric '${name}'; known: ${Object.keys(builtinRegistry).join(', ')}`,
      path: at,
      input: name,
    });
    return z.NEVER;
  }
  try {
    return entry.create(options);
  } catch (error) {
    if (error instanceof z.ZodError) {
      for (const issue of error.issues) {
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: ['options', ...issue.path.filter((k): k is string | number => typeof k !== 'symbol')],
          input: options,
        });
      }
    } else {
      ctx.addIssue({ code: 'custom', message: (error as Error).message, path: ['options'], input: options });
    }
    return z.NEVER;
  }
}

/** A metric reference, resolved to a metric object while parsing. */
const metricRefSchema = z.unknown().transform((value, ctx): Metric => {
  if (typeof value === 'string') return buildBuiltin(value, {}, ctx, []);
  if (isMetric(value)) {
    try {
      toMetricDescriptor(value);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `metric '${value.type}': ${(error as Error).message}`,
        input: value,
      });
      return z.NEVER;
    }
    return value;
  }
  if (isPlainObject(value) && typeof value['name'] === 'string') {
    const extra = Object.keys(value).filter((k) => k !== 'name' && k !== 'options');
    for (const k of extra)
      ctx.addIssue({
        code: 'custom',
        message: `unknown key '${k}' (use name and options)`,
        path: [k],
        input: value,
      });
    const options = value['options'] ?? {};
    if (!isPlainObject(options)) {
      ctx.addIssue({
        code: 'custom',
        message: 'options must be an object',
        path: ['options'],
        input: options,
      });
      return z.NEVER;
    }
    if (extra.length > 0) return z.NEVER;
    return buildBuiltin(value['name'], options, ctx, ['name']);
  }
  ctx.addIssue({
    code: 'custom',
    message:
      'expected a built-in metric name, { name, options }, or a metric object with type, outputSpec() and computeScores()',
    input: value,
  });
  return z.NEVER;
});

const metricListSchema = z.array(metricRefSchema).superRefine((metrics, ctx) => {
  const types = metrics.map((m) => m.type);
  const dups = [...new Set(types.filter((t, i) => types.indexOf(t) !== i))].sort();
  if (dups.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `metric types must be unique within a task; duplicated: ${dups.join(', ')} (rename one with options.type)`,
      input: metrics,
    });
  }
});

const viewsSchema = z.record(z.string().min(1), rowSchemas.view);

/**
 * The zod schema of a config file's export. Metric references are resolved to metric objects while
 * parsing (built-ins are built with their options), so a bad option is reported at its path.
 *
 * @example
 * evalstreamConfigSchema.safeParse({ metrics: { default: ['exact_match'] } }).success; // true
 */
export const evalstreamConfigSchema = z
  .object({
    runId: z.string().min(1).optional(),
    labels: z.record(z.string(), z.string()).default({}),
    metrics: z
      .object({
        default: metricListSchema.optional(),
        tasks: z.record(z.string().min(1), metricListSchema).default({}),
      })
      .strict()
      .default({ tasks: {} }),
    views: z
      .object({
        default: viewsSchema.default({}),
        tasks: z.record(z.string().min(1), viewsSchema).default({}),
      })
      .strict()
      .default({ default: {}, tasks: {} }),
    scoring: z
      .object({
        concurrency: z.number().int().min(1).max(4096).default(4),
        // bounds only the asynchronous part of a metric: a synchronous loop blocks the whole process,
        // timeout and Ctrl-C included (docs/metrics.md); null or 0 waits for ever, Ctrl-C still stops it
        timeoutMs: z
          .number()
          .int()
          .min(0)
          .nullable()
          .default(60_000)
          .describe(
            'per metric call, in ms; null or 0 = none. Bounds only asynchronous work: a metric stuck in a synchronous loop blocks the process',
          ),
        failFast: z.boolean().default(false),
      })
      .strict()
      .default({ concurrency: 4, timeoutMs: 60_000, failFast: false }),
  })
  .strict();

/** The metric protocol, structurally: a non-empty string `type`, `outputSpec` and `computeScores`. */
function isMetric(value: unknown): value is Metric {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['type'] === 'string' &&
    v['type'].length > 0 &&
    typeof v['outputSpec'] === 'function' &&
    typeof v['computeScores'] === 'function'
  );
}
