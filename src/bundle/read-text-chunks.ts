import { open } from 'node:fs/promises';
import { invalidUtf8Offsets } from '../util/invalid-utf8-offsets.js';

const CHUNK = 1 << 20;

/** One decoded piece of a text file: whole lines, or the file's unterminated tail. */
export interface TextChunk {
  /** Ends with `\n`, unless `tail`. */
  text: string;
  /** The file's last line, which has no newline. */
  tail: boolean;
  /**
   * The file offset of a byte that is not UTF-8, in the line right after `text` (which holds the
   * whole lines before it); reading stops at such a chunk.
   */
  invalidUtf8At?: number;
}

/**
 * Reads a UTF-8 text file in 1 MiB reads and yields it as decoded chunks of whole lines (each ends
 * at a newline), then the unterminated tail if any. One decode per read: a newline byte never occurs
 * inside a multi-byte UTF-8 sequence, so every line decodes exactly as it would alone. A line longer
 * than a read is carried over until its newline arrives. Each read is checked to be UTF-8 (natively):
 * at the first byte that is not, the lines before it come in a last chunk that says where it is.
 *
 * @example
 * for await (const { text } of readTextChunks('scores.jsonl')) lines += text.split('\n').length - 1;
 */
export async function* readTextChunks(file: string): AsyncGenerator<TextChunk> {
  const handle = await open(file, 'r');
  try {
    // bytes [0, have) of `buf` are the unfinished line carried over from the previous read
    let buf = Buffer.allocUnsafe(2 * CHUNK);
    let have = 0;
    let consumed = 0; // file offset of buf[0]
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
      const bad = invalidUtf8Offsets(buf, 0, lastNl + 1, 1)[0];
      if (bad !== undefined) {
        yield stopAt(buf, bad, consumed);
        return;
      }
      const text = buf.toString('utf8', 0, lastNl + 1);
      consumed += lastNl + 1;
      buf.copy(buf, 0, lastNl + 1, end);
      have = end - lastNl - 1;
      yield { text, tail: false };
    }
    if (have > 0) {
      const bad = invalidUtf8Offsets(buf, 0, have, 1)[0];
      yield bad === undefined
        ? { text: buf.toString('utf8', 0, have), tail: true }
        : stopAt(buf, bad, consumed);
    }
  } finally {
    await handle.close();
  }
}

/** The whole lines of `buf` before the line holding the bad byte at `bad`, and where that byte is. */
function stopAt(buf: Buffer, bad: number, consumed: number): TextChunk {
  const lineStart = bad === 0 ? 0 : buf.lastIndexOf(10, bad - 1) + 1;
  return { text: buf.toString('utf8', 0, lineStart), tail: false, invalidUtf8At: consumed + bad };
}
