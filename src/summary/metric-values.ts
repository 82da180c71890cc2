import type { TaskValueRecord } from '../model/summary.js';

/**
 * The bare values of task value records, in order, keeping type, cardinality and nulls.
 *
 * @example
 * metricValues([{ trial_id: 'a', value_type: 'label', value: 'ok' }]); // ['ok']
 */
export function metricValues(records: readonly TaskValueRecord[]): (number | boolean | string | null)[] {
  return records.map((r) => r.value);
}
