import type { JsonValue } from '../../model/json-value.js';
import type { MetricInput } from '../../model/metric.js';

/**
 * The task's grader-only truth under `row.data.reference[key]`. Throws when the key is absent or null,
 * so a task without a reference is a metric failure rather than a silent 0.
 *
 * @example
 * referenceValue(input, 'expected'); // '42'
 */
export function referenceValue(input: MetricInput, key: string): JsonValue {
  const value = input.row.data.reference[key];
  if (value === undefined || value === null) {
    throw new Error(`task '${input.row.data.task.id}' has no reference '${key}' (row.data.reference.${key})`);
  }
  return value;
}
