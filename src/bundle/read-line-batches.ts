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
    let carry: Buffer | null = null;
    let lineNo = 0;
    const chunk = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const data: Buffer =
        carry === null ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const batch: LineBatch = { texts: [], lines: [], lastUnterminated: false };
      let start = 0;
      for (;;) {
        const nl = data.indexOf(10, start);
        if (nl < 0) break;
        lineNo++;
        pushLine(batch, data, start, nl, lineNo);
        start = nl + 1;
      }
      // copy the unfinished tail: `chunk` is reused by the next read
      carry = start < data.length ? Buffer.from(data.subarray(start)) : null;
      if (batch.texts.length > 0) yield batch;
    }
    if (carry !== null) {
      const batch: LineBatch = { texts: [], lines: [], lastUnterminated: true };
      pushLine(batch, carry, 0, carry.length, lineNo + 1);
      if (batch.texts.length > 0) yield batch;
    }
  } finally {
    await handle.close();
  }
}

function pushLine(batch: LineBatch, data: Buffer, start: number, end: number, line: number): void {
  if (end > start && data[end - 1] === 13) end--;
  if (end === start) return;
  const text = data.toString('utf8', start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return;
  batch.texts.push(text);
  batch.lines.push(line);
}
