import type { z } from 'zod';
import type { BundleIssue } from './bundle-issue.js';
import { BundleReadError } from './bundle-read-error.js';
import { parsePythonJson } from '../pycompat/parse-python-json.js';
import type { ReadJsonlRowsOptions } from './read-jsonl-rows.js';
import { rowSources } from './row-sources.js';

/**
 * Parses and validates one JSONL line as `readJsonlRows` does: `JSON.parse` (Python's `NaN` /
 * `Infinity` literals through `parsePythonJson`), the exact-shape fast check, else zod; registers the
 * row in `rowSources` unless `register: false`, runs `check`. Returns the row, or null for a cut-off
 * last line handed to `onTruncatedLine`; a bad line throws `BundleReadError` (file, line, field).
 *
 * @example
 * const parse = jsonlRowParser(rowSchemas.score, { displayName: 'scores.jsonl' });
 * const row = parse('{"id": …}', 1, true);
 */
export function jsonlRowParser<T extends object>(
  schema: z.ZodType<T, unknown>,
  options: ReadJsonlRowsOptions<T>,
): (text: string, line: number, terminated: boolean) => T | null {
  const name = options.displayName;
  const register = options.register !== false;
  const { fastCheck, check, remapFloatPaths, onTruncatedLine } = options;
  return (text, line, terminated) => {
    let raw: unknown;
    let floatPaths: Set<string> | null | undefined; // undefined: worked out lazily from the text
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    if (raw === undefined) {
      // not strict JSON: Python's NaN/Infinity literals, or a real syntax error
      const parsed = parsePythonJson(text);
      if (parsed.ok) {
        raw = parsed.value;
        floatPaths = parsed.floatPaths;
        if (floatPaths !== null && remapFloatPaths) floatPaths = remapFloatPaths(raw, floatPaths);
      } else {
        const issue: BundleIssue = {
          code: terminated ? 'invalid_json' : 'truncated_line',
          file: name,
          line,
          path: [],
          message: terminated
            ? `invalid JSON at column ${parsed.offset + 1}: ${parsed.message}`
            : `the last line is cut off (no newline, invalid JSON at column ${parsed.offset + 1}: ${parsed.message})`,
        };
        if (!terminated && onTruncatedLine) {
          onTruncatedLine(issue);
          return null;
        }
        throw new BundleReadError([issue]);
      }
    }
    let row: T;
    if (fastCheck?.(raw)) {
      row = raw;
    } else {
      const result = schema.safeParse(raw);
      if (!result.success) throw BundleReadError.fromZod(result.error, name, line);
      row = result.data;
    }
    if (register) rowSources.remember(row, text, floatPaths, remapFloatPaths);
    if (check) {
      const issue = check(row, line);
      if (issue !== null) throw new BundleReadError([issue]);
    }
    return row;
  };
}
