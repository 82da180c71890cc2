import type { z } from 'zod';
import type { BundleIssue } from './bundle-issue.js';
import { BundleReadError } from './bundle-read-error.js';
import { jsonlRowParser } from './jsonl-row-parser.js';
import { readLineBatches } from './read-line-batches.js';

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
