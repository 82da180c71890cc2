import type { ZodType } from 'zod';
import type { MetricOutputSpec } from '../model/output-spec.js';

/**
 * The outcome of checking one output value against its declared kind: either accepted, with the value
 * the SDK's schema would have coerced it to (for information only; storage keeps the raw value), or
 * refused with pydantic's error type and message.
 */
export type OutputValueCheck =
  { ok: true; coerced: unknown } | { ok: false; errorType: string; message: string; loc?: string };

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

// Python/Rust number-parsing rules of pydantic's lax mode (pydantic-core `str_as_float`,
// `str_as_int`, `str_as_bool`), ported to strings.

// Rust's `str::trim` removes characters with the Unicode White_Space property (JS `trim` differs:
// it also strips U+FEFF and keeps U+0085).
const RUST_WS =
  '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM_RE = new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, 'g');

function rustTrim(s: string): string {
  return s.replace(TRIM_RE, '');
}

// Rust's `f64::from_str` grammar: sign? (inf | infinity | nan | digits[.digits][e[sign]digits]).
const RUST_FLOAT_RE = /^([+-]?)(?:(inf|infinity|nan)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))$/i;

function rustParseF64(s: string): number | null {
  const m = RUST_FLOAT_RE.exec(s);
  if (m === null) return null;
  const sign = m[1] === '-' ? -1 : 1;
  const word = m[2]?.toLowerCase();
  if (word === 'nan') return NaN;
  if (word !== undefined) return sign * Infinity;
  return Number(s);
}

function stripUnderscores(s: string): string | null {
  if (s.startsWith('_') || s.endsWith('_') || !s.includes('_') || s.includes('__')) return null;
  return s.replaceAll('_', '');
}

/** pydantic-core `str_as_float`: Rust float syntax on the trimmed text, else on the untrimmed text without underscores. */
function strAsFloat(s: string): number | null {
  const direct = rustParseF64(rustTrim(s));
  if (direct !== null) return direct;
  const stripped = stripUnderscores(s);
  return stripped === null ? null : rustParseF64(stripped);
}

// jiter's `NumberInt::try_from`: a JSON integer literal and nothing else.
const JSON_INT_RE = /^-?(?:0|[1-9]\d*)$/;
const MAX_INT_DIGITS = 4300;

type IntParse = { ok: true; value: string } | { ok: false; errorType: 'int_parsing' | 'int_parsing_size' };

/** pydantic-core `str_as_int` (≥ 2.9): a JSON integer, else the cleaned text (see `cleanIntStr`) as one. */
function strAsInt(s: string): IntParse {
  if (JSON_INT_RE.test(s)) {
    const digits = s.startsWith('-') ? s.length - 1 : s.length;
    return digits > MAX_INT_DIGITS ? { ok: false, errorType: 'int_parsing_size' } : { ok: true, value: s };
  }
  const cleaned = cleanIntStr(s);
  if (cleaned !== null && JSON_INT_RE.test(cleaned)) {
    const digits = cleaned.startsWith('-') ? cleaned.length - 1 : cleaned.length;
    if (digits <= MAX_INT_DIGITS) return { ok: true, value: cleaned === '-0' ? '0' : cleaned };
  }
  return { ok: false, errorType: 'int_parsing' };
}

// pydantic-core `clean_int_str`: trim, one leading '+' or '-', leading zeros, a `.000` tail and
// underscores are removed; null when nothing changed or the text cannot be an integer.
function cleanIntStr(input: string): string | null {
  const lenBefore = input.length;
  let s = rustTrim(input);
  if (s.startsWith('+')) {
    if (s.slice(1).startsWith('-')) return null;
    s = s.slice(1);
  }
  let negative = false;
  if (s.startsWith('-')) {
    const rest = s.slice(1);
    if (rest.startsWith('-') || rest.startsWith('+')) return null;
    negative = true;
    s = rest;
  }
  const noZeros = stripLeadingZeros(s);
  if (noZeros === null) return null;
  s = noZeros;
  const dot = s.indexOf('.');
  if (dot >= 0) {
    const decimals = s.slice(dot + 1);
    if (decimals.length > 0 && /^0+$/.test(decimals)) s = s.slice(0, dot);
  }
  const stripped = stripUnderscores(s);
  if (stripped !== null) return negative ? `-${stripped}` : stripped;
  if (lenBefore === s.length) return null;
  return negative ? `-${s}` : s;
}

function stripLeadingZeros(s: string): string | null {
  const first = s[0];
  if (first === undefined) return null;
  if (first !== '0') return (first >= '1' && first <= '9') || first === '-' ? s : null;
  for (let i = 1; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '0' || c === '_') continue;
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i);
    if (c === '.') return s.slice(i - 1);
    return null;
  }
  return s.slice(-1);
}

const FALSE_WORDS = ['f', 'n', 'no', 'off', 'false'];
const TRUE_WORDS = ['t', 'y', 'on', 'yes', 'true'];

/** pydantic-core `str_as_bool`: exact `0`/`1`, or one of the words (ASCII case-insensitive, no trimming). */
function strAsBool(s: string): boolean | null {
  const lower = s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (s === '0' || FALSE_WORDS.includes(lower)) return false;
  if (s === '1' || TRUE_WORDS.includes(lower)) return true;
  return null;
}
