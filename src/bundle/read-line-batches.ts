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
 * exactly as `forEachLine`.
 *
 * @example
 * for await (const batch of readLineBatches('scores.jsonl')) for (const text of batch.texts) JSON.parse(text);
 */
export async function* readLineBatches(file: string): AsyncGenerator<LineBatch> {
  let lineNo = 0;
  for await (const { text, tail } of readTextChunks(file)) {
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
  }
}

function push(batch: LineBatch, text: string | null, line: number): void {
  if (text === null) return;
  batch.texts.push(text);
  batch.lines.push(line);
}
