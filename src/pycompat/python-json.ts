import { PyFloat } from './py-float.js';
import { formatPyFloat } from './format-py-float.js';
import { quotePyJsonString } from './quote-py-json-string.js';
import { pythonSortKeys } from './python-sort-keys.js';
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
  /** With `indent`: the nesting depth the value starts at (for embedding it in a larger document). */
  level?: number;
}

const PATH_SEP = '\u0000';

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
  const unit = ' '.repeat(indent);
  return indented(value, unit, '\n' + unit.repeat(options.level ?? 0), floatPaths, floatPaths ? '' : null);
}

function inline(value: WireValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quotePyJsonString(value, true);
    case 'number':
      return plainNumber(value, false);
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof PyFloat) return formatPyFloat(value.value, 'repr');
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
    out += (i === 0 ? '' : ', ') + quotePyJsonString(key, true) + ': ' + inline(obj[key] as WireValue);
  }
  return out + '}';
}

function inlineWithPaths(value: WireValue, floatPaths: ReadonlySet<string>, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quotePyJsonString(value, true);
    case 'number':
      return plainNumber(value, floatPaths.has(path));
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof PyFloat) return formatPyFloat(value.value, 'repr');
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
      quotePyJsonString(key, true) +
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
      return quotePyJsonString(value, true);
    case 'number':
      return plainNumber(value, floatPaths !== null && path !== null && floatPaths.has(path));
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (value instanceof PyFloat) return formatPyFloat(value.value, 'repr');
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
      quotePyJsonString(key, true) +
      ': ' +
      indented(obj[key] as WireValue, unit, inner, floatPaths, prefix === null ? null : prefix + key);
  }
  return out + newline + '}';
}

function sortedKeys(obj: WireObject): string[] {
  return pythonSortKeys(Object.keys(obj));
}

function plainNumber(x: number, markedFloat: boolean): string {
  if (!Number.isFinite(x)) return 'null';
  if (!markedFloat && Number.isInteger(x)) {
    if (Object.is(x, -0)) return '0';
    return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
  }
  return formatPyFloat(x, 'repr');
}
