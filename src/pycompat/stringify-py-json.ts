import { formatPyFloat } from './format-py-float.js';
import type { PyJson } from './py-json.js';
import { pythonSortKeys } from './python-sort-keys.js';
import { quotePyJsonString } from './quote-py-json-string.js';

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
}

interface Layout {
  unit: string;
  colon: string;
  comma: string;
  floats: 'orjson' | 'repr';
  ascii: boolean;
  sort: boolean;
}

/**
 * Serializes a {@link PyJson} value like Python does: `bigint` as an integer, `number` as a float
 * (`1.0`), objects in insertion order (or sorted), compact or indented in orjson's / json.dumps'
 * layout (json.dumps without indent separates with `", "` and `": "`).
 *
 * @example
 * stringifyPyJson({ n: 2n, mean: 1 }); // '{"n":2,"mean":1.0}'
 * stringifyPyJson({ a: 1 }, { indent: 4, floats: 'repr' }); // json.dumps(…, indent=4)
 */
export function stringifyPyJson(value: PyJson, options: StringifyPyJsonOptions = {}): string {
  const indent = options.indent ?? 0;
  const floats = options.floats ?? 'orjson';
  const unit = ' '.repeat(indent);
  const layout: Layout = {
    unit,
    colon: indent > 0 || floats === 'repr' ? ': ' : ':',
    comma: indent === 0 && floats === 'repr' ? ', ' : ',',
    floats,
    ascii: options.ensureAscii ?? false,
    sort: options.sortKeys ?? false,
  };
  return write(value, layout, indent > 0 ? '\n' + unit.repeat(options.level ?? 0) : null);
}

/** `newline` is the line break and indentation of the value's own level (null: compact). */
function write(v: PyJson, l: Layout, newline: string | null): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return formatPyFloat(v, l.floats);
    case 'string':
      return quotePyJsonString(v, l.ascii);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  const inner = newline === null ? '' : newline + l.unit;
  const close = newline ?? '';
  const next = newline === null ? null : inner;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < v.length; i++)
      out += (i === 0 ? '' : l.comma) + inner + write(v[i] as PyJson, l, next);
    return out + close + ']';
  }
  const keys = l.sort ? pythonSortKeys(Object.keys(v)) : Object.keys(v);
  if (keys.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    out +=
      (i === 0 ? '' : l.comma) +
      inner +
      quotePyJsonString(k, l.ascii) +
      l.colon +
      write(v[k] as PyJson, l, next);
  }
  return out + close + '}';
}
