import type { TaskValueRecord } from '../model/summary.js';

/** A task value record as written to `summary.json`: strict JSON, `value_type` always present. */
export interface TaskValueRecordWire {
  trial_id: string;
  value_type: TaskValueRecord['value_type'];
  value: number | boolean | string | null;
}

/**
 * Encode a task value record for the wire (spec §7.4): non-finite numbers become the strings
 * `"NaN"`, `"Infinity"`, `"-Infinity"` with `value_type: "number"`; everything else is unchanged.
 *
 * @example
 * encodeTaskValueRecord({ trial_id: 'a1', value_type: 'number', value: NaN }); // { trial_id: 'a1', value_type: 'number', value: 'NaN' }
 */
export function encodeTaskValueRecord(record: TaskValueRecord): TaskValueRecordWire {
  const v = record.value;
  if (typeof v === 'number' && !Number.isFinite(v)) {
    const token = Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
    return { trial_id: record.trial_id, value_type: record.value_type, value: token };
  }
  return { trial_id: record.trial_id, value_type: record.value_type, value: v };
}
