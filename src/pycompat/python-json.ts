import { PyFloat } from './py-float.js';
import type { PyJson, PyJsonObject } from './py-json.js';
import { stringifyPyJson } from './stringify-py-json.js';
import type { WireObject, WireValue } from './wire-value.js';
import { setOwn } from '../util/set-own.js';

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
 * non-finite numbers as `null` (what pydantic's JSON mode does for untyped values). The value is
 * turned into {@link PyJson} (ints as `bigint`) and written by `stringifyPyJson`.
 *
 * @example
 * pythonJson({ b: 1, a: new PyFloat(2) }); // '{"a": 2.0, "b": 1}'
 * pythonJson({ a: [1] }, { indent: 2 }); // '{\n  "a": [\n    1\n  ]\n}'
 */
export function pythonJson(value: WireValue, options: PythonJsonOptions = {}): string {
  const floatPaths = options.floatPaths && options.floatPaths.size > 0 ? options.floatPaths : null;
  return stringifyPyJson(toPyJson(value, floatPaths, ''), {
    ...(options.indent === undefined ? {} : { indent: options.indent }),
    floats: 'repr',
    ensureAscii: true,
    sortKeys: true,
    level: options.level ?? 0,
  });
}

/** The {@link PyJson} of a wire value; `path` is tracked only when there are float paths. */
function toPyJson(value: WireValue, floatPaths: ReadonlySet<string> | null, path: string): PyJson {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return plainNumber(value, floatPaths !== null && floatPaths.has(path));
  if (value instanceof PyFloat) return value.value;
  const prefix = floatPaths === null ? '' : path === '' ? '' : path + PATH_SEP;
  if (Array.isArray(value)) {
    const items = value as readonly WireValue[];
    return items.map((v, i) => toPyJson(v, floatPaths, floatPaths === null ? '' : prefix + i));
  }
  const obj = value as WireObject;
  const out: PyJsonObject = {};
  for (const key of Object.keys(obj)) {
    const v = toPyJson(obj[key] as WireValue, floatPaths, floatPaths === null ? '' : prefix + key);
    setOwn(out, key, v);
  }
  return out;
}

/** A plain number: an int when integral and not marked as a float, else a float; non-finite: null. */
function plainNumber(x: number, markedFloat: boolean): PyJson {
  if (!Number.isFinite(x)) return null;
  if (markedFloat || !Number.isInteger(x)) return x;
  if (Number.isSafeInteger(x) || Math.abs(x) >= 1e21) return BigInt(x);
  // beyond 2^53 `String` writes the shortest digits (1152921504606847000), as Python got them
  return BigInt(String(x));
}
