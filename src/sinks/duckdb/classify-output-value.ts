import type { JsonValue } from '../../model/json-value.js';
import { toJsonText } from './to-json-text.js';

/** How `score_outputs` stores one metric output value (coerce-and-discard: the value as returned). */
export interface ClassifiedOutputValue {
  /** `number` (incl. NaN/±Infinity), `boolean`, `string`, `null`, `array` or `object`. */
  valueType: 'number' | 'boolean' | 'string' | 'null' | 'array' | 'object';
  /** The number; booleans as 1/0; else null. */
  numValue: number | null;
  /** The string of a `string` value, else null. */
  labelValue: string | null;
  /** JSON text of an `array`/`object` value, else null. */
  jsonValue: string | null;
}

/**
 * Classifies an output value for the `score_outputs` columns.
 *
 * @example
 * classifyOutputValue(true); // { valueType: 'boolean', numValue: 1, labelValue: null, jsonValue: null }
 */
export function classifyOutputValue(value: JsonValue): ClassifiedOutputValue {
  switch (typeof value) {
    case 'number':
      return { valueType: 'number', numValue: value, labelValue: null, jsonValue: null };
    case 'boolean':
      return { valueType: 'boolean', numValue: value ? 1 : 0, labelValue: null, jsonValue: null };
    case 'string':
      return { valueType: 'string', numValue: null, labelValue: value, jsonValue: null };
    default:
      if (value === null) return { valueType: 'null', numValue: null, labelValue: null, jsonValue: null };
      return {
        valueType: Array.isArray(value) ? 'array' : 'object',
        numValue: null,
        labelValue: null,
        jsonValue: toJsonText(value),
      };
  }
}
