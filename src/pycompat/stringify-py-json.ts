import { formatPyFloat } from './format-py-float.js';
import { PyFloat } from './py-float.js';
import type { PyJson } from './py-json.js';
import { pythonSortKeys } from './python-sort-keys.js';
import { quotePyJsonString } from './quote-py-json-string.js';
import type { WireValue } from './wire-value.js';

/** How a {@link PyJson} value is laid out as text. */
export interface StringifyPyJsonOptions {
  /** Spaces per level; 0 = compact (orjson default), 2 = `OPT_INDENT_2`, 4 = `json.dumps(indent=4)`. */
  indent?: number;
  /** `'orjson'` (NaN → null, `1e16`) or `'repr'` (json.dumps: `NaN`, `1e+16`). Default `'orjson'`. */
  floats?: 'orjson' | 'repr';
  /** Escape non-ASCII as `\uXXXX` (json.dumps' `ensure_ascii`). Default false. */
  ensureAscii?: boolean;
  /** Write object keys sorted by code point (json.dumps' `sort_keys`). Default false: insertion order. */
  sortKeys?: boolean;
  /** With `indent`: the nesting depth the value starts at (for embedding it in a larger document). */
  level?: number;
  /**
   * `'wire'` reads plain numbers as a {@link WireValue} holds them: an int when integral (unless its
   * path is in `floatPaths`), a float otherwise, `null` when not finite. Default `'float'`: every plain
   * number is a Python float (a {@link PyJson} value). {@link PyFloat} boxes are floats either way.
   */
  numbers?: 'float' | 'wire';
  /** With `numbers: 'wire'`: paths (see `floatPathKey`) of integral numbers to write as floats. */
  floatPaths?: ReadonlySet<string> | null;
}

interface Layout {
  unit: string;
  colon: string;
  comma: string;
  floats: 'orjson' | 'repr';
  ascii: boolean;
  sort: boolean;
  wire: boolean;
  /** Non-empty or null: paths are tracked only when there are some. */
  floatPaths: ReadonlySet<string> | null;
}

const PATH_SEP = '\u0000';

/**
 * Serializes a {@link PyJson} value like Python does: `bigint` as an integer, `number` as a float
 * (`1.0`), objects in insertion order (or sorted), compact or indented in orjson's / json.dumps'
 * layout (json.dumps without indent separates with `", "` and `": "`). With `numbers: 'wire'` it
 * writes a {@link WireValue} as it is (see `pythonJson`), without converting it first.
 *
 * @example
 * stringifyPyJson({ n: 2n, mean: 1 }); // '{"n":2,"mean":1.0}'
 * stringifyPyJson({ a: 1 }, { indent: 4, floats: 'repr' }); // json.dumps(…, indent=4)
 */
export function stringifyPyJson(value: PyJson | WireValue, options: StringifyPyJsonOptions = {}): string {
  return stringifyPyJsonIn(value, pyJsonLayout(options));
}

/**
 * A text layout of {@link stringifyPyJson}, built from its options once (for callers that write many
 * values the same way, see {@link stringifyPyJsonIn}).
 */
export interface PyJsonLayout {
  readonly layout: Layout;
  /** The line break and indentation the value starts at; null: compact. */
  readonly newline: string | null;
}

/** The layout of `options` (see {@link StringifyPyJsonOptions}). */
export function pyJsonLayout(options: StringifyPyJsonOptions = {}): PyJsonLayout {
  const indent = options.indent ?? 0;
  const floats = options.floats ?? 'orjson';
  const unit = ' '.repeat(indent);
  const paths = options.floatPaths;
  const colon = indent > 0 || floats === 'repr' ? ': ' : ':';
  const ascii = options.ensureAscii ?? false;
  const layout: Layout = {
    unit,
    colon,
    comma: indent === 0 && floats === 'repr' ? ', ' : ',',
    floats,
    ascii,
    sort: options.sortKeys ?? false,
    wire: options.numbers === 'wire',
    floatPaths: paths && paths.size > 0 ? paths : null,
  };
  return { layout, newline: indent > 0 ? '\n' + unit.repeat(options.level ?? 0) : null };
}

/** {@link stringifyPyJson} with a layout built beforehand. */
export function stringifyPyJsonIn(value: PyJson | WireValue, layout: PyJsonLayout): string {
  return write(value, layout.layout, layout.newline, '');
}

/**
 * `newline` is the line break and indentation of the value's own level (null: compact); `path` is
 * the value's float-path key, kept only when there are float paths.
 */
function write(v: PyJson | WireValue, l: Layout, newline: string | null, path: string): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return l.wire ? wireNumber(v, l, path) : formatPyFloat(v, l.floats);
    case 'string':
      return quotePyJsonString(v, l.ascii);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof PyFloat) return formatPyFloat(v.value, l.floats);
  const inner = newline === null ? '' : newline + l.unit;
  const close = newline ?? '';
  const next = newline === null ? null : inner;
  const prefix = l.floatPaths === null || path === '' ? '' : path + PATH_SEP;
  if (Array.isArray(v)) {
    const items = v as readonly (PyJson | WireValue)[];
    if (items.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      const at = l.floatPaths === null ? '' : prefix + i;
      out += (i === 0 ? '' : l.comma) + inner + write(items[i] as PyJson, l, next, at);
    }
    return out + close + ']';
  }
  const obj = v as { readonly [key: string]: PyJson | WireValue };
  const keys = l.sort ? pythonSortKeys(Object.keys(obj)) : Object.keys(obj);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const at = l.floatPaths === null ? '' : prefix + k;
    out +=
      (i === 0 ? '' : l.comma) +
      inner +
      quotePyJsonString(k, l.ascii) +
      l.colon +
      write(obj[k] as PyJson, l, next, at);
  }
  return out + close + '}';
}

/** A plain wire number: an int when integral and not marked as a float, else a float; non-finite: null. */
function wireNumber(x: number, l: Layout, path: string): string {
  if (!Number.isFinite(x)) return 'null';
  if (!Number.isInteger(x) || (l.floatPaths !== null && l.floatPaths.has(path)))
    return formatPyFloat(x, l.floats);
  // below 1e21 `String` writes every digit (beyond 2^53 the shortest ones, as Python got them)
  return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
}
