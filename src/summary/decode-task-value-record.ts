import type { TaskValueRecord } from '../model/summary.js';

/** A problem found while decoding one task value record (`path` is relative to the record). */
export interface TaskValueRecordIssue {
  code: 'invalid_record' | 'invalid_trial_id' | 'invalid_value_type' | 'invalid_value' | 'inconsistent_value';
  path: (string | number)[];
  message: string;
}

export type DecodeTaskValueRecordResult =
  { ok: true; record: TaskValueRecord } | { ok: false; issue: TaskValueRecordIssue };

const TOKENS: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
const KEYS = new Set(['trial_id', 'value_type', 'value']);

function fail(
  code: TaskValueRecordIssue['code'],
  path: (string | number)[],
  message: string,
): DecodeTaskValueRecordResult {
  return { ok: false, issue: { code, path, message } };
}

/**
 * Decode one `summary.json` task value record (spec §7.4), the inverse of `encodeTaskValueRecord`.
 * With `value_type: "number"` a string must be an escape token (decoded to a float); without
 * `value_type` (absent or null) a token string is a number, any other string a label, null is
 * `missing`, anything else `number`. Inconsistent records (`number` + non-token string or
 * non-number, `label` + non-string, `missing` + non-null), unknown `value_type`s, extra keys, a
 * missing `value` key and object/list values are rejected as data, never thrown.
 *
 * @example
 * decodeTaskValueRecord({ trial_id: 'a', value_type: 'number', value: 'NaN' }); // { ok: true, record: { ..., value: NaN } }
 * decodeTaskValueRecord({ trial_id: 'a', value_type: 'label', value: 1 }).ok; // false
 */
export function decodeTaskValueRecord(raw: unknown): DecodeTaskValueRecordResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return fail('invalid_record', [], 'a task value record must be an object');
  }
  const data = raw as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!KEYS.has(key))
      return fail('invalid_record', [key], `unexpected key '${key}' in a task value record`);
  }
  const trialId = data['trial_id'];
  if (typeof trialId !== 'string') return fail('invalid_trial_id', ['trial_id'], 'trial_id must be a string');
  if (!('value' in data))
    return fail('invalid_value', ['value'], 'value is required (null for a dead trial)');
  const rawValue = data['value'];
  if (
    rawValue !== null &&
    typeof rawValue !== 'number' &&
    typeof rawValue !== 'boolean' &&
    typeof rawValue !== 'string'
  ) {
    return fail('invalid_value', ['value'], 'value must be a number, boolean, string or null');
  }
  let value: number | boolean | string | null = rawValue;
  const declared = data['value_type'];
  let valueType: TaskValueRecord['value_type'];
  if (declared === undefined || declared === null) {
    if (typeof value === 'string') {
      const decoded = TOKENS[value];
      if (decoded !== undefined && Object.hasOwn(TOKENS, value)) {
        valueType = 'number';
        value = decoded;
      } else {
        valueType = 'label';
      }
    } else {
      valueType = value === null ? 'missing' : 'number';
    }
  } else if (declared === 'number' || declared === 'label' || declared === 'missing') {
    valueType = declared;
    if (valueType === 'number' && typeof value === 'string') {
      if (!Object.hasOwn(TOKENS, value)) {
        return fail(
          'inconsistent_value',
          ['value'],
          `value_type='number' but value ${JSON.stringify(value)} is not one of the escaped-float tokens ` +
            `['-Infinity', 'Infinity', 'NaN']; a categorical value must declare value_type='label'`,
        );
      }
      value = TOKENS[value] as number;
    }
  } else {
    return fail('invalid_value_type', ['value_type'], "value_type must be 'number', 'label' or 'missing'");
  }
  if (valueType === 'missing' && value !== null) {
    return fail(
      'inconsistent_value',
      ['value'],
      "value_type='missing' requires value None (a trial that died before measurement)",
    );
  }
  if (valueType === 'label' && typeof value !== 'string') {
    return fail(
      'inconsistent_value',
      ['value'],
      `value_type='label' requires a string value, got ${pyTypeName(value)}`,
    );
  }
  if (valueType === 'number' && typeof value !== 'number' && typeof value !== 'boolean') {
    return fail(
      'inconsistent_value',
      ['value'],
      `value_type='number' requires a numeric value, got ${pyTypeName(value)}`,
    );
  }
  return { ok: true, record: { trial_id: trialId, value_type: valueType, value } };
}

function pyTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'str';
}
