import type { z } from 'zod';
import { forEachLine } from './for-each-line.js';
import { jsonlRowParser } from './jsonl-row-parser.js';
import type { ReadJsonlRowsOptions } from './read-jsonl-rows.js';

/**
 * `readJsonlRows` for a one-pass consumer: every validated row is handed to `onRow` as soon as its
 * line is parsed (with the line's text and 1-based number), so each parsed row is garbage before the
 * next is made, as in a bare read-and-`JSON.parse` loop; nothing is batched. Same chunked UTF-8
 * decoding (`forEachLine`), same blank-line, `\r\n`, cut-off-line and error rules: the first bad line
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
  await forEachLine(
    file,
    (text, line, terminated) => {
      const row = parse(text, line, terminated);
      if (row !== null) onRow(row, text, line);
    },
    options.displayName,
  );
}
