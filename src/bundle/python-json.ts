import { PyFloat } from './py-float.js';
import type { WireObject, WireValue } from './wire-value.js';

/** Options of {@link pythonJson}. */
export interface PythonJsonOptions {
  /** `2` for `json.dumps(..., indent=2)`; omitted for one line with `", "` / `": "` separators. */
  indent?: number;
  /**
   * Paths (see `floatPathKey`) of integral numbers that were float literals in the source text, so
   * `1.0` read from a bundle is written back as `1.0`.
   */
  floatPaths?: ReadonlySet<string> | null;
}

const PATH_SEP = '\u0000';
// Characters that json.dumps(ensure_ascii=True) writes verbatim: printable ASCII except `"` and `\`.
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
// Keys whose UTF-16 order may differ from code-point order.
const HIGH_UNITS = /[\ud800-\uffff]/;

/**
 * Serialises like Python's `json.dumps(value, sort_keys=True[, indent=2])` with the default
 * `ensure_ascii=True`: keys sorted by code point, non-ASCII and control characters as lowercase
 * `\uXXXX` escapes, floats in Python `repr` form (`1.0`, `1e-05`, `1.5e+16`).
 * {@link PyFloat} boxes print as floats (non-finite ones as `NaN` / `Infinity` / `-Infinity`, as
 * `json.dumps` does); plain integral numbers print as ints, other plain numbers as floats, and plain
 * non-finite numbers as `null` (what pydantic's JSON mode does for untyped values).
 *
 * @example
 * pythonJson({ b: 1, a: new PyFloat(2) }); // '{"a": 2.0, "b": 1}'
 * pythonJson({ a: [1] }, { indent: 2 }); // '{\n  "a": [\n    1\n  ]\n}'
 */
export function pythonJson(value: WireValue, options: PythonJsonOptions = {}): string {
  const floatPaths = options.floatPaths && options.floatPaths.size > 0 ? options.floatPaths : null;
  const indent = options.indent;
  if (indent === undefined) {
    return floatPaths ? inlineWithPaths(value, floatPaths, '') : inline(value);
  }
  return indented(value, ' '.repeat(indent), '\n', floatPaths, floatPaths ? '' : null);
}

function inline(value: WireValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return plainNumber(value, false);
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (Array.isArray(value)) {
    const items = value as readonly WireValue[];
    if (items.length === 0) return '[]';
    let out = '[' + inline(items[0] as WireValue);
    for (let i = 1; i < items.length; i++) out += ', ' + inline(items[i] as WireValue);
    return out + ']';
  }
  const obj = value as WireObject;
  const keys = sortedKeys(obj);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out += (i === 0 ? '' : ', ') + quote(key) + ': ' + inline(obj[key] as WireValue);
  }
  return out + '}';
}

function inlineWithPaths(value: WireValue, floatPaths: ReadonlySet<string>, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return plainNumber(value, floatPaths.has(path));
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof PyFloat) return floatRepr(value.value);
  const prefix = path === '' ? '' : path + PATH_SEP;
  if (Array.isArray(value)) {
    const items = value as readonly WireValue[];
    if (items.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      out += (i === 0 ? '' : ', ') + inlineWithPaths(items[i] as WireValue, floatPaths, prefix + i);
    }
    return out + ']';
  }
  const obj = value as WireObject;
  const keys = sortedKeys(obj);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out +=
      (i === 0 ? '' : ', ') +
      quote(key) +
      ': ' +
      inlineWithPaths(obj[key] as WireValue, floatPaths, prefix + key);
  }
  return out + '}';
}

function indented(
  value: WireValue,
  unit: string,
  newline: string,
  floatPaths: ReadonlySet<string> | null,
  path: string | null,
): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return plainNumber(value, floatPaths !== null && path !== null && floatPaths.has(path));
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof PyFloat) return floatRepr(value.value);
  const inner = newline + unit;
  const prefix = path === null ? null : path === '' ? '' : path + PATH_SEP;
  if (Array.isArray(value)) {
    const items = value as readonly WireValue[];
    if (items.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      out +=
        (i === 0 ? '' : ',') +
        inner +
        indented(items[i] as WireValue, unit, inner, floatPaths, prefix === null ? null : prefix + i);
    }
    return out + newline + ']';
  }
  const obj = value as WireObject;
  const keys = sortedKeys(obj);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out +=
      (i === 0 ? '' : ',') +
      inner +
      quote(key) +
      ': ' +
      indented(obj[key] as WireValue, unit, inner, floatPaths, prefix === null ? null : prefix + key);
  }
  return out + newline + '}';
}

function sortedKeys(obj: WireObject): string[] {
  const keys = Object.keys(obj);
  if (keys.length < 2) return keys;
  for (const key of keys) {
    if (HIGH_UNITS.test(key)) return keys.sort(compareCodePoints);
  }
  return keys.sort();
}

/** Python sorts `str` by code point; JavaScript's default sort compares UTF-16 units. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (astral code points) rank above every other BMP unit. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      default:
        out += '\\u' + c.toString(16).padStart(4, '0');
    }
  }
  return out + s.slice(start) + '"';
}

function plainNumber(x: number, markedFloat: boolean): string {
  if (!Number.isFinite(x)) return 'null';
  if (!markedFloat && Number.isInteger(x)) {
    if (Object.is(x, -0)) return '0';
    return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
  }
  return floatRepr(x);
}

/** Python `repr(float)`: shortest round-trip digits; exponent form when exp < -4 or exp >= 16. */
function floatRepr(x: number): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sci = x.toExponential(); // e.g. "-1.2345e+2": shortest digits, like Number#toString
  const ePos = sci.indexOf('e');
  const exp = Number(sci.slice(ePos + 1));
  const negative = sci.charCodeAt(0) === 0x2d;
  const mantissa = sci.slice(negative ? 1 : 0, ePos);
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const expText = (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0');
    return sign + mantissa + 'e' + expText;
  }
  if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits;
  const intLen = exp + 1;
  if (digits.length <= intLen) return sign + digits + '0'.repeat(intLen - digits.length) + '.0';
  return sign + digits.slice(0, intLen) + '.' + digits.slice(intLen);
}
