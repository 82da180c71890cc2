/**
 * Python/Rust number-parsing rules used by pydantic's lax mode (pydantic-core `str_as_float`,
 * `str_as_int`, `str_as_bool`), ported to strings in JS. Pure functions, no I/O.
 *
 * @example
 * pythonNumberSyntax.strAsFloat(' 2 '); // 2
 * pythonNumberSyntax.strAsInt('1.0'); // { ok: true, value: '1' }
 */
export const pythonNumberSyntax = {
  rustTrim,
  strAsFloat,
  strAsInt,
  strAsBool,
};

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
