import { pyJsonLayout, stringifyPyJson, stringifyPyJsonIn } from './stringify-py-json.js';
import type { WireValue } from './wire-value.js';

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

/** `pythonJson`'s one-line layout without float paths (most rows), built once. */
const ONE_LINE = pyJsonLayout({ floats: 'repr', ensureAscii: true, sortKeys: true, numbers: 'wire' });

/**
 * Serialises like Python's `json.dumps(value, sort_keys=True[, indent=2])` with the default
 * `ensure_ascii=True`: keys sorted by code point, non-ASCII and control characters as lowercase
 * `\uXXXX` escapes, floats in Python `repr` form (`1.0`, `1e-05`, `1.5e+16`).
 * {@link PyFloat} boxes print as floats (non-finite ones as `NaN` / `Infinity` / `-Infinity`, as
 * `json.dumps` does); plain integral numbers print as ints, other plain numbers as floats, and plain
 * non-finite numbers as `null` (what pydantic's JSON mode does for untyped values). The value is
 * written as it is by `stringifyPyJson` (no converted copy is made).
 *
 * @example
 * pythonJson({ b: 1, a: new PyFloat(2) }); // '{"a": 2.0, "b": 1}'
 * pythonJson({ a: [1] }, { indent: 2 }); // '{\n  "a": [\n    1\n  ]\n}'
 */
export function pythonJson(value: WireValue, options: PythonJsonOptions = {}): string {
  if (options.indent === undefined && (options.floatPaths?.size ?? 0) === 0)
    return stringifyPyJsonIn(value, ONE_LINE);
  return stringifyPyJson(value, {
    ...(options.indent === undefined ? {} : { indent: options.indent }),
    floats: 'repr',
    ensureAscii: true,
    sortKeys: true,
    level: options.level ?? 0,
    numbers: 'wire',
    floatPaths: options.floatPaths ?? null,
  });
}
