import { kindOfValueSchema, type MetricOutputSpec } from '../model/output-spec.js';
import type { MetricDescriptor } from '../model/task.js';

/**
 * Rebuilds output specs from a `tasks.jsonl` descriptor (absent `required` means true). A custom
 * `value_schema` becomes a `model` spec without a zod schema: such values can only be checked for null.
 *
 * @example
 * outputSpecsFromDescriptor({ type: 'm', outputs: [{ name: 's', description: null, value_schema: 'ContinuousScore' }] });
 * // [{ name: 's', kind: 'continuous', valueSchema: 'ContinuousScore', required: true, description: null }]
 */
export function outputSpecsFromDescriptor(descriptor: MetricDescriptor): MetricOutputSpec[] {
  return descriptor.outputs.map((o) =>
    Object.freeze({
      name: o.name,
      description: o.description,
      kind: kindOfValueSchema(o.value_schema),
      valueSchema: o.value_schema,
      required: o.required ?? true,
    }),
  );
}
