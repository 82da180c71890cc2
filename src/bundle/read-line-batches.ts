import { open } from 'node:fs/promises';

/** One non-blank line of a text file, 1-based. `terminated` is false only for a last line with no `\n`. */
export interface TextLine {
  text: string;
  line: number;
  terminated: boolean;
}

const CHUNK = 1 << 20;

/**
 * Reads a UTF-8 text file in 1 MiB chunks and yields its non-blank lines in batches (one batch per
 * chunk), so memory stays bounded and the per-line cost stays low. `\r\n` endings are accepted.
 *
 * @example
 * for await (const batch of readLineBatches('scores.jsonl')) for (const l of batch) JSON.parse(l.text);
 */
export async function* readLineBatches(file: string): AsyncGenerator<TextLine[]> {
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
      const batch: TextLine[] = [];
      let start = 0;
      for (;;) {
        const nl = data.indexOf(10, start);
        if (nl < 0) break;
        lineNo++;
        pushLine(batch, data, start, nl, lineNo, true);
        start = nl + 1;
      }
      // copy the unfinished tail: `chunk` is reused by the next read
      carry = start < data.length ? Buffer.from(data.subarray(start)) : null;
      if (batch.length > 0) yield batch;
    }
    if (carry !== null) {
      const batch: TextLine[] = [];
      pushLine(batch, carry, 0, carry.length, lineNo + 1, false);
      if (batch.length > 0) yield batch;
    }
  } finally {
    await handle.close();
  }
}

function pushLine(
  batch: TextLine[],
  data: Buffer,
  start: number,
  end: number,
  line: number,
  terminated: boolean,
): void {
  if (end > start && data[end - 1] === 13) end--;
  if (end === start) return;
  const text = data.toString('utf8', start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return;
  batch.push({ text, line, terminated });
}
