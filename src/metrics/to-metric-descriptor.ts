import type { Metric } from '../model/metric.js';
import type { MetricDescriptor, OutputDescriptor } from '../model/task.js';
import { pyValueRepr } from './py-value-repr.js';

/**
 * The `tasks.jsonl` form of a metric: its type and declared outputs. `required` is written only when
 * false (absent means true, which older SDK readers also accept). Throws like the SDK's descriptor
 * validation: empty type, no outputs, or `duplicate metric output names: ['x']`.
 *
 * @example
 * toMetricDescriptor(exactMatch());
 * // { type: 'exact_match', outputs: [{ name: 'score', description: ..., value_schema: 'ContinuousScore' }] }
 */
export function toMetricDescriptor(metric: Metric): MetricDescriptor {
  if (typeof metric.type !== 'string' || metric.type.length === 0) {
    throw new Error('metric type must be a non-empty string');
  }
  const specs = metric.outputSpec();
  if (specs.length === 0) {
    throw new Error(`metric '${metric.type}' declares no outputs`);
  }
  const names = specs.map((s) => s.name);
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].sort();
  if (duplicates.length > 0) {
    throw new Error(`duplicate metric output names: ${pyValueRepr(duplicates)}`);
  }
  const outputs = specs.map((spec): OutputDescriptor => {
    const out: OutputDescriptor = {
      name: spec.name,
      description: spec.description,
      value_schema: spec.valueSchema,
    };
    if (!spec.required) out.required = false;
    return out;
  });
  return { type: metric.type, outputs };
}
