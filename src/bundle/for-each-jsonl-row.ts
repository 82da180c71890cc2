import type { z } from 'zod';
import { jsonlRowParser } from './jsonl-row-parser.js';
import type { ReadJsonlRowsOptions } from './read-jsonl-rows.js';
import { readLineBatches } from './read-line-batches.js';

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
