import type { Metric } from '../model/metric.js';
import type { MetricOutputSpec } from '../model/output-spec.js';
import type { MetricDescriptor, OutputDescriptor } from '../model/task.js';
import { pyValueRepr } from '../pycompat/py-value-repr.js';

/**
 * The `tasks.jsonl` form of a metric: its type and declared outputs. `required` is written only when
 * false (absent means true, which older SDK readers also accept). Throws like the SDK's descriptor
 * validation: empty type, no outputs, or `duplicate metric output names: ['x']`; an `outputSpec()` of
 * the wrong shape names the field and the metric (`outputSpec()[1].kind of metric 'm' must be one of …`).
 *
 * @example
 * toMetricDescriptor(exactMatch());
 * // { type: 'exact_match', outputs: [{ name: 'score', description: ..., value_schema: 'ContinuousScore' }] }
 */
export function toMetricDescriptor(metric: Metric): MetricDescriptor {
  if (typeof metric.type !== 'string' || metric.type.length === 0) {
    throw new Error('metric type must be a non-empty string');
  }
  const specs = checkOutputSpecs(metric.type, metric.outputSpec() as unknown);
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

const KINDS = ['continuous', 'discrete', 'boolean', 'label', 'model'];

/** The specs, after checking each field a descriptor and the validators read. */
function checkOutputSpecs(type: string, specs: unknown): MetricOutputSpec[] {
  // the config error names the metric already; the descriptor's other callers get it here
  const where = type === '' ? 'outputSpec()' : `outputSpec() of metric '${type}'`;
  const show = (v: unknown): string => (v === undefined ? 'undefined' : (JSON.stringify(v) ?? String(v)));
  if (!Array.isArray(specs))
    throw new Error(`${where} must return an array of output specs (got ${show(specs)})`);
  specs.forEach((spec: unknown, i) => {
    const at = `outputSpec()[${i}]`;
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
      throw new Error(`${at} of metric '${type}' must be an object (got ${show(spec)})`);
    const s = spec as Record<string, unknown>;
    const fail = (field: string, expected: string): never => {
      throw new Error(`${at}.${field} of metric '${type}' must be ${expected} (got ${show(s[field])})`);
    };
    if (typeof s['name'] !== 'string' || s['name'] === '') fail('name', 'a non-empty string');
    if (typeof s['kind'] !== 'string' || !KINDS.includes(s['kind']))
      fail('kind', `one of ${KINDS.join(', ')}`);
    if (typeof s['valueSchema'] !== 'string' || s['valueSchema'] === '')
      fail('valueSchema', 'a non-empty string');
    if (s['description'] !== null && typeof s['description'] !== 'string')
      fail('description', 'a string or null');
    if (typeof s['required'] !== 'boolean') fail('required', 'a boolean');
  });
  return specs as MetricOutputSpec[];
}
