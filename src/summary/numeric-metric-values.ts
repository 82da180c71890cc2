import type { TaskValueRecord } from '../model/summary.js';

/**
 * The values that can be compared and averaged: numbers as floats, booleans as 1.0/0.0, a dead
 * trial's null kept, labels **dropped** (an unmeasured trial, not a failed one).
 *
 * @example
 * numericMetricValues(records); // e.g. [1, null, 0] for (1.0, dead trial, "bad", false)
 */
export function numericMetricValues(records: readonly TaskValueRecord[]): (number | null)[] {
  const out: (number | null)[] = [];
  for (const r of records) {
    const v = r.value;
    if (v === null) out.push(null);
    else if (typeof v === 'boolean') out.push(v ? 1.0 : 0.0);
    else if (typeof v === 'number') out.push(v);
  }
  return out;
}
