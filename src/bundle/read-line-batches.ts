import { open } from 'node:fs/promises';

/**
 * The non-blank lines of one chunk of a text file: their texts and 1-based line numbers. Only the
 * file's very last line can lack a newline; `lastUnterminated` says so.
 */
export interface LineBatch {
  texts: string[];
  lines: number[];
  lastUnterminated: boolean;
}

const CHUNK = 1 << 20;

/**
 * Reads a UTF-8 text file in 1 MiB chunks and yields its non-blank lines in batches (one batch per
 * chunk, as parallel arrays), so memory stays bounded and the per-line cost stays low. `\r\n` endings
 * are accepted.
 *
 * @example
 * for await (const batch of readLineBatches('scores.jsonl')) for (const text of batch.texts) JSON.parse(text);
 */
export async function* readLineBatches(file: string): AsyncGenerator<LineBatch> {
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
      // one decode per chunk: a newline byte never occurs inside a multi-byte UTF-8 sequence, so
      // this decodes every line exactly as decoding it alone would
      const text = buf.toString('utf8', 0, lastNl + 1);
      const batch: LineBatch = { texts: [], lines: [], lastUnterminated: false };
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        lineNo++;
        pushLine(batch, text, start, nl, lineNo);
        start = nl + 1;
      }
      buf.copy(buf, 0, lastNl + 1, end);
      have = end - lastNl - 1;
      if (batch.texts.length > 0) yield batch;
    }
    if (have > 0) {
      const batch: LineBatch = { texts: [], lines: [], lastUnterminated: true };
      const text = buf.toString('utf8', 0, have);
      pushLine(batch, text, 0, text.length, lineNo + 1);
      if (batch.texts.length > 0) yield batch;
    }
  } finally {
    await handle.close();
  }
}

function pushLine(batch: LineBatch, data: string, start: number, end: number, line: number): void {
  if (end > start && data.charCodeAt(end - 1) === 13) end--;
  if (end === start) return;
  const text = data.slice(start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return;
  batch.texts.push(text);
  batch.lines.push(line);
}
