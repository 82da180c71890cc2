import type { z } from 'zod';
import { type BundleIssue, BundleReadError } from './bundle-read-error.js';
import { parsePythonJson } from '../pycompat/parse-python-json.js';
import { readLineBatches } from './read-line-batches.js';
import { rowSources } from './row-sources.js';

const YIELD_ROWS = 256;

/** Validated rows of part of a chunk, with their 1-based line numbers (parallel arrays). */
export interface RowBatch<T> {
  rows: T[];
  lines: number[];
  /** The lines' texts, only when read with `register: false`. */
  texts: string[] | null;
}

/** Options of {@link readJsonlRows}. */
export interface ReadJsonlRowsOptions<T> {
  /** Name used in issues (e.g. `scores.jsonl`). */
  displayName: string;
  /**
   * Called for a last line that has no newline and does not parse (a writer died mid-line); the line is
   * skipped. Without it, such a line is an error like any other.
   */
  onTruncatedLine?: (issue: BundleIssue) => void;
  /** Checks a validated row further (e.g. evidence refs); return issues to reject it. */
  check?: (row: T, line: number) => BundleIssue | null;
  /** Adjusts the float paths of a raw row whose shape validation changes (e.g. wrapped evidence). */
  remapFloatPaths?: (raw: unknown, paths: Set<string>) => Set<string>;
  /** An exact-shape check that is stricter than `schema`: rows passing it skip the zod pass. */
  fastCheck?: (raw: unknown) => raw is T;
  /**
   * Register rows in `rowSources` (default true) so writers can reproduce them. A one-pass reader that
   * never writes the rows back passes false and gets each line's `text` instead.
   */
  register?: boolean;
}

/**
 * Streams a JSONL file as batches of zod-validated rows (blank lines skipped), in batches of up to 256 rows. Every row is registered
 * in `rowSources` so writers reproduce its number literals. The first bad line throws a
 * `BundleReadError` naming the file, line and field (after the rows before it were yielded).
 *
 * @example
 * for await (const batch of readJsonlRows(file, rowSchemas.score, { displayName: 'scores.jsonl' })) count += batch.rows.length;
 */
export async function* readJsonlRows<T extends object>(
  file: string,
  schema: z.ZodType<T, unknown>,
  options: ReadJsonlRowsOptions<T>,
): AsyncGenerator<RowBatch<T>> {
  const register = options.register !== false;
  const parse = jsonlRowParser(schema, options);
  for await (const batch of readLineBatches(file, options.displayName)) {
    let out: RowBatch<T> = { rows: [], lines: [], texts: register ? null : [] };
    let failure: BundleReadError | null = null;
    const { texts, lines } = batch;
    const n = texts.length;
    for (let i = 0; i < n; i++) {
      if (out.rows.length === YIELD_ROWS) {
        // small batches: parsed rows die young instead of surviving a scavenge or two
        yield out;
        out = { rows: [], lines: [], texts: register ? null : [] };
      }
      const text = texts[i] as string;
      const line = lines[i] as number;
      const terminated = !(batch.lastUnterminated && i === n - 1);
      let row: T | null;
      try {
        row = parse(text, line, terminated);
      } catch (error) {
        if (!(error instanceof BundleReadError)) throw error;
        failure = error;
        break;
      }
      if (row === null) continue;
      out.rows.push(row);
      out.lines.push(line);
      out.texts?.push(text);
    }
    // rows before a bad line are delivered first, then the error
    if (out.rows.length > 0) yield out;
    if (failure !== null) throw failure;
  }
}

/**
 * `readJsonlRows` for a one-pass consumer: every validated row is handed to `onRow` as soon as its
 * line is parsed (with the line's text and 1-based number), so each parsed row is garbage before the
 * next is made, as in a bare read-and-`JSON.parse` loop; nothing is batched. Same chunked UTF-8
 * decoding (`readLineBatches`), same blank-line, `\r\n`, cut-off-line and error rules: the first bad line
 * rejects with a `BundleReadError` after the rows before it were delivered.
 *
 * @example
 * await forEachJsonlRow(file, rowSchemas.score, { displayName: 'scores.jsonl' }, (row) => builder.addScore(row));
 */
export async function forEachJsonlRow<T extends object>(
  file: string,
  schema: z.ZodType<T, unknown>,
  options: ReadJsonlRowsOptions<T>,
  onRow: (row: T, text: string, line: number) => void,
): Promise<void> {
  const parse = jsonlRowParser(schema, options);
  for await (const { texts, lines, lastUnterminated } of readLineBatches(file, options.displayName)) {
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i] as string;
      const line = lines[i] as number;
      const row = parse(text, line, !(lastUnterminated && i === texts.length - 1));
      if (row !== null) onRow(row, text, line);
    }
  }
}

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
