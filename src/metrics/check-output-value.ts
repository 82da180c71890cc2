import type { ZodType } from 'zod';
import type { MetricOutputSpec } from '../model/output-spec.js';
import { pythonNumberSyntax } from './python-number-syntax.js';

/**
 * The outcome of checking one output value against its declared kind: either accepted, with the value
 * the SDK's schema would have coerced it to (for information only; storage keeps the raw value), or
 * refused with pydantic's error type and message.
 */
export type OutputValueCheck =
  { ok: true; coerced: unknown } | { ok: false; errorType: string; message: string; loc?: string };

const { strAsFloat, strAsInt, strAsBool } = pythonNumberSyntax;

const MESSAGES: Record<string, string> = {
  float_type: 'Input should be a valid number',
  float_parsing: 'Input should be a valid number, unable to parse string as a number',
  int_type: 'Input should be a valid integer',
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  finite_number: 'Input should be a finite number',
  bool_type: 'Input should be a valid boolean',
  bool_parsing: 'Input should be a valid boolean, unable to interpret input',
  string_type: 'Input should be a valid string',
};

// 2^63: pydantic's float→int conversion requires i64::MIN < f < i64::MAX (as f64).
const I64_BOUND = 9223372036854775808;

/**
 * Checks one output value against its spec with pydantic v2 lax (Python-mode) semantics: the coercion
 * table of spec §3.3. Never throws; `coerced` is what the SDK's schema would hold (storage keeps the
 * raw value). A JS number that is an integer counts as a Python `int`, any other as a `float`.
 *
 * @example
 * checkOutputValue('1.0', discreteScore('n')); // { ok: true, coerced: 1 }
 * checkOutputValue(1.5, boolean('ok')); // { ok: false, errorType: 'bool_type', message: 'Input should be a valid boolean' }
 */
export function checkOutputValue(value: unknown, spec: MetricOutputSpec): OutputValueCheck {
  switch (spec.kind) {
    case 'continuous':
      return checkFloat(value);
    case 'discrete':
      return checkInt(value);
    case 'boolean':
      return checkBool(value);
    case 'label':
      return typeof value === 'string' ? { ok: true, coerced: value } : refuse('string_type');
    case 'model':
      return checkModel(value, spec.valueSchema, spec.schema);
  }
}

function refuse(errorType: string): OutputValueCheck {
  return { ok: false, errorType, message: MESSAGES[errorType] ?? errorType };
}

function checkFloat(value: unknown): OutputValueCheck {
  if (typeof value === 'number') return { ok: true, coerced: value };
  if (typeof value === 'boolean') return { ok: true, coerced: value ? 1 : 0 };
  if (typeof value === 'bigint') return { ok: true, coerced: Number(value) };
  if (typeof value === 'string') {
    const parsed = strAsFloat(value);
    return parsed === null ? refuse('float_parsing') : { ok: true, coerced: parsed };
  }
  return refuse('float_type');
}

function floatAsInt(n: number): OutputValueCheck {
  if (!Number.isFinite(n)) return refuse('finite_number');
  if (n % 1 !== 0) return refuse('int_from_float');
  if (!(-I64_BOUND < n && n < I64_BOUND)) return refuse('int_parsing_size');
  return { ok: true, coerced: n };
}

function checkInt(value: unknown): OutputValueCheck {
  if (typeof value === 'boolean') return { ok: true, coerced: value ? 1 : 0 };
  if (typeof value === 'bigint') return { ok: true, coerced: value };
  if (typeof value === 'number')
    return Number.isInteger(value) ? { ok: true, coerced: value } : floatAsInt(value);
  if (typeof value === 'string') {
    const parsed = strAsInt(value);
    if (!parsed.ok) return refuse(parsed.errorType);
    const big = BigInt(parsed.value);
    return { ok: true, coerced: Number.isSafeInteger(Number(big)) ? Number(big) : big };
  }
  return refuse('int_type');
}

function intAsBool(n: number | bigint): OutputValueCheck {
  if (n == 0) return { ok: true, coerced: false };
  if (n == 1) return { ok: true, coerced: true };
  return refuse('bool_parsing');
}

function checkBool(value: unknown): OutputValueCheck {
  if (typeof value === 'boolean') return { ok: true, coerced: value };
  if (typeof value === 'string') {
    const parsed = strAsBool(value);
    return parsed === null ? refuse('bool_parsing') : { ok: true, coerced: parsed };
  }
  if (typeof value === 'bigint') {
    return -BigInt(I64_BOUND) <= value && value < BigInt(I64_BOUND) ? intAsBool(value) : refuse('bool_type');
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && -I64_BOUND <= value && value < I64_BOUND) return intAsBool(value);
    // Python: a float or an int beyond i64 goes through float→int, whose failure here is `bool_type`.
    return refuse('bool_type');
  }
  return refuse('bool_type');
}

function checkModel(value: unknown, schemaName: string, schema: ZodType | undefined): OutputValueCheck {
  if (value === null || value === undefined) {
    return {
      ok: false,
      errorType: 'model_type',
      message: `Input should be a valid dictionary or instance of ${schemaName}`,
    };
  }
  if (schema === undefined) return { ok: true, coerced: value };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, coerced: parsed.data };
  const issue = parsed.error.issues[0];
  const loc = issue?.path.map(String).join('.') ?? '';
  return {
    ok: false,
    errorType: issue?.code ?? 'invalid',
    message: issue?.message ?? 'invalid value',
    ...(loc === '' ? {} : { loc }),
  };
}
