import { open } from 'node:fs/promises';
import type { z } from 'zod';
import { jsonlRowParser } from './jsonl-row-parser.js';
import type { ReadJsonlRowsOptions } from './read-jsonl-rows.js';

const CHUNK = 1 << 20;

/**
 * `readJsonlRows` for a one-pass consumer: every validated row is handed to `onRow` as soon as its
 * line is parsed (with the line's text and 1-based number), so each parsed row is garbage before the
 * next is made, as in a bare read-and-`JSON.parse` loop; nothing is batched. Same chunked UTF-8
 * decoding (one decode per 1 MiB read), same blank-line, `\r\n`, cut-off-line and error rules: the
 * first bad line rejects with a `BundleReadError` after the rows before it were delivered.
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
  const handle = await open(file, 'r');
  try {
    // bytes [0, have) of `buf` are the unfinished line carried over from the previous read
    let buf = Buffer.allocUnsafe(2 * CHUNK);
    let have = 0;
    let lineNo = 0;
    for (;;) {
      if (buf.length - have < CHUNK) {
        const bigger = Buffer.allocUnsafe(Math.max(2 * buf.length, have + CHUNK));
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, have, CHUNK, null);
      if (bytesRead === 0) break;
      const end = have + bytesRead;
      const lastNl = buf.lastIndexOf(10, end - 1);
      if (lastNl < have) {
        have = end; // no line ends in this read
        continue;
      }
      // one decode per chunk: a newline byte never occurs inside a multi-byte UTF-8 sequence
      const text = buf.toString('utf8', 0, lastNl + 1);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        lineNo++;
        const line = lineText(text, start, nl);
        start = nl + 1;
        if (line === null) continue;
        const row = parse(line, lineNo, true);
        if (row !== null) onRow(row, line, lineNo);
      }
      buf.copy(buf, 0, lastNl + 1, end);
      have = end - lastNl - 1;
    }
    if (have > 0) {
      const text = buf.toString('utf8', 0, have);
      const line = lineText(text, 0, text.length);
      if (line !== null) {
        const row = parse(line, lineNo + 1, false);
        if (row !== null) onRow(row, line, lineNo + 1);
      }
    }
  } finally {
    await handle.close();
  }
}

/** The line `data[start, end)` without a trailing `\r`, or null when blank. */
function lineText(data: string, start: number, end: number): string | null {
  if (end > start && data.charCodeAt(end - 1) === 13) end--;
  if (end === start) return null;
  const text = data.slice(start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return null;
  return text;
}
