import type { ZodType } from 'zod';
import type { MetricOutputSpec, OutputKind } from '../model/output-spec.js';

/** Options common to every output-spec factory (`required` defaults to true, as in the SDK). */
export interface OutputSpecOptions {
  /** false: the metric may omit this output when it could not measure it. Default true. */
  required?: boolean;
  /** Free text written to `tasks.jsonl`. Default null. */
  description?: string | null;
}

/** Options of {@link model}: the common ones plus the schema name written to `tasks.jsonl`. */
export interface ModelOutputOptions extends OutputSpecOptions {
  /** The `value_schema` name (the SDK writes the pydantic class name). Default `Model`. */
  schemaName?: string;
}

// The shared body of the five factories. Throws, like the SDK, `metric output name must not be
// empty` for an empty name.
function makeOutputSpec(
  name: string,
  kind: OutputKind,
  valueSchema: string,
  options: OutputSpecOptions,
  schema?: ZodType,
): MetricOutputSpec {
  if (typeof name !== 'string' || name.length === 0) {
    throw new Error('metric output name must not be empty');
  }
  const spec: MetricOutputSpec = {
    name,
    description: options.description ?? null,
    kind,
    valueSchema,
    required: options.required ?? true,
    ...(schema === undefined ? {} : { schema }),
  };
  return Object.freeze(spec);
}

/**
 * Declares a float output (`ContinuousScore`): numbers, booleans and numeric strings pass; the summary
 * averages its finite values.
 *
 * @example
 * outputSpec: () => [continuousScore('score'), continuousScore('format_ok', { required: false })]
 */
export function continuousScore(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'continuous', 'ContinuousScore', options);
}

/**
 * Declares an integer output (`DiscreteScore`) for counts and ordinal levels.
 *
 * @example
 * outputSpec: () => [discreteScore('max_repeated_tool_calls')]
 */
export function discreteScore(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'discrete', 'DiscreteScore', options);
}

/**
 * Declares a pass/fail output (`BooleanValue`). It feeds views and pass@k as 0/1 but has no mean of
 * its own in the summary.
 *
 * @example
 * outputSpec: () => [boolean('efficient_tool_use')]
 */
export function boolean(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'boolean', 'BooleanValue', options);
}

/**
 * Declares a category output (`Label`): only strings pass.
 *
 * @example
 * outputSpec: () => [label('failure_mode', { required: false })]
 */
export function label(name: string, options: OutputSpecOptions = {}): MetricOutputSpec {
  return makeOutputSpec(name, 'label', 'Label', options);
}

/**
 * Declares a structured output checked by a zod schema (the SDK's `model(name, BaseModel)`). `null` is
 * always rejected; anything else must pass `schema`. The stored value is the one the metric returned.
 *
 * @example
 * model('verdict', z.object({ ok: z.boolean(), reason: z.string() }), { schemaName: 'Verdict' })
 */
export function model(name: string, schema: ZodType, options: ModelOutputOptions = {}): MetricOutputSpec {
  const schemaName = options.schemaName ?? 'Model';
  if (['ContinuousScore', 'DiscreteScore', 'BooleanValue', 'Label'].includes(schemaName)) {
    throw new Error(`model output schema name must not be a built-in value schema: '${schemaName}'`);
  }
  return makeOutputSpec(name, 'model', schemaName, options, schema);
}
