import { formatPyFloat } from './format-py-float.js';
import type { PyJson } from './py-json.js';

/** How a {@link PyJson} value is laid out as text. */
export interface StringifyPyJsonOptions {
  /** Spaces per level; 0 = compact (orjson default), 2 = `OPT_INDENT_2`, 4 = `json.dumps(indent=4)`. */
  indent?: number;
  /** `'orjson'` (NaN → null, `1e16`) or `'repr'` (json.dumps: `NaN`, `1e+16`). Default `'orjson'`. */
  floats?: 'orjson' | 'repr';
  /** Escape non-ASCII as `\uXXXX` (json.dumps' `ensure_ascii`). Default false. */
  ensureAscii?: boolean;
}

/** Where {@link serializePyJson} puts the text: raw tokens, and strings to be written as JSON literals. */
export interface PyJsonSink {
  raw(text: string): void;
  str(value: string): void;
}

/**
 * Serializes a {@link PyJson} value like Python does into `sink`: `bigint` as an integer, `number` as
 * a float (`1.0`), objects in insertion order, compact or indented in orjson's / json.dumps' layout.
 * String literals are left to the sink (`str`), which must escape them as JSON (and as ASCII when
 * `ensureAscii` is asked for, see {@link quotePyJsonString}).
 *
 * @example
 * let s = ''; serializePyJson({ n: 2n }, {}, { raw: (t) => (s += t), str: (v) => (s += JSON.stringify(v)) }); // '{"n":2}'
 */
export function serializePyJson(value: PyJson, options: StringifyPyJsonOptions, sink: PyJsonSink): void {
  const indent = options.indent ?? 0;
  const floats = options.floats ?? 'orjson';
  const colon = indent > 0 || floats === 'repr' ? ': ' : ':';
  const comma = indent === 0 && floats === 'repr' ? ', ' : ',';
  const pads: string[] = [];
  const pad = (depth: number): string => {
    let p = pads[depth];
    if (p === undefined) {
      p = '\n' + ' '.repeat(indent * depth);
      pads[depth] = p;
    }
    return p;
  };
  const write = (v: PyJson, depth: number): void => {
    if (v === null) sink.raw('null');
    else if (typeof v === 'number') sink.raw(formatPyFloat(v, floats));
    else if (typeof v === 'string') sink.str(v);
    else if (typeof v === 'bigint') sink.raw(v.toString());
    else if (typeof v === 'boolean') sink.raw(v ? 'true' : 'false');
    else if (Array.isArray(v)) {
      if (v.length === 0) {
        sink.raw('[]');
        return;
      }
      sink.raw('[');
      for (let i = 0; i < v.length; i++) {
        if (i > 0) sink.raw(comma);
        if (indent > 0) sink.raw(pad(depth + 1));
        write(v[i] as PyJson, depth + 1);
      }
      if (indent > 0) sink.raw(pad(depth));
      sink.raw(']');
    } else {
      const keys = Object.keys(v);
      const n = keys.length;
      if (n === 0) {
        sink.raw('{}');
        return;
      }
      sink.raw('{');
      for (let i = 0; i < n; i++) {
        const k = keys[i] as string;
        if (i > 0) sink.raw(comma);
        if (indent > 0) sink.raw(pad(depth + 1));
        sink.str(k);
        sink.raw(colon);
        write(v[k] as PyJson, depth + 1);
      }
      if (indent > 0) sink.raw(pad(depth));
      sink.raw('}');
    }
  };
  write(value, 0);
}
