import { invalidUtf8LineError } from './invalid-utf8-line-error.js';
import { lineText } from './line-text.js';
import { readTextChunks } from './read-text-chunks.js';

/**
 * The non-blank lines of one chunk of a text file: their texts and 1-based line numbers. Only the
 * file's very last line can lack a newline; `lastUnterminated` says so.
 */
export interface LineBatch {
  texts: string[];
  lines: number[];
  lastUnterminated: boolean;
}

/**
 * Reads a UTF-8 text file in 1 MiB chunks (`readTextChunks`) and yields its non-blank lines in
 * batches (one batch per chunk, as parallel arrays), so memory stays bounded and the per-line cost
 * stays low. `\r\n` endings are accepted; blank and whitespace-only lines are skipped but counted,
 * exactly as `forEachLine`, and so is a line with a byte that is not UTF-8 (an error after the lines
 * before it).
 *
 * @example
 * for await (const batch of readLineBatches('scores.jsonl')) for (const text of batch.texts) JSON.parse(text);
 */
export async function* readLineBatches(file: string, displayName?: string): AsyncGenerator<LineBatch> {
  let lineNo = 0;
  for await (const { text, tail, invalidUtf8At } of readTextChunks(file)) {
    const batch: LineBatch = { texts: [], lines: [], lastUnterminated: tail };
    if (tail) {
      push(batch, lineText(text, 0, text.length), lineNo + 1);
    } else {
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        lineNo++;
        push(batch, lineText(text, start, nl), lineNo);
        start = nl + 1;
      }
    }
    if (batch.texts.length > 0) yield batch;
    if (invalidUtf8At !== undefined) throw invalidUtf8LineError(file, displayName, lineNo + 1, invalidUtf8At);
  }
}

function push(batch: LineBatch, text: string | null, line: number): void {
  if (text === null) return;
  batch.texts.push(text);
  batch.lines.push(line);
}
