import type { ZodType } from 'zod';
import type { MetricOutputSpec } from '../model/output-spec.js';
import { makeOutputSpec } from './make-output-spec.js';
import type { OutputSpecOptions } from './output-spec-options.js';

/** Options of {@link model}: the common ones plus the schema name written to `tasks.jsonl`. */
export interface ModelOutputOptions extends OutputSpecOptions {
  /** The `value_schema` name (the SDK writes the pydantic class name). Default `Model`. */
  schemaName?: string;
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
