import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { invalidUtf8Offsets } from '../util/invalid-utf8-offsets.js';
import { BundleReadError } from './bundle-read-error.js';

const CHUNK = 1 << 20;
/**
 * Most bytes decoded into one string. V8 keeps a string of more than ~128 KiB in a large-object page
 * of its own, mapped fresh for it and unmapped once it is collected, so a file read through 1 MiB
 * strings pays a page fault for every 4 KiB of it; pieces this size stay in the young generation.
 */
const PIECE = 64 << 10;

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
 * Reads a UTF-8 text file in 1 MiB reads and yields its non-blank lines in batches (one batch per
 * read, as parallel arrays), so memory stays bounded and the per-line cost stays low. One decode per
 * read: a newline byte never occurs inside a multi-byte UTF-8 sequence, so every line decodes exactly
 * as it would alone; a line longer than a read is carried over until its newline arrives. A trailing
 * `\r` is dropped; blank and whitespace-only lines are skipped but counted. A line with a byte that is
 * not UTF-8 rejects with a `BundleReadError` naming `displayName` (default: the file's name), the line
 * and the byte's offset, after the lines before it.
 *
 * @example
 * for await (const batch of readLineBatches('scores.jsonl')) for (const text of batch.texts) JSON.parse(text);
 */
export async function* readLineBatches(file: string, displayName?: string): AsyncGenerator<LineBatch> {
  let lineNo = 0;
  const handle = await open(file, 'r');
  try {
    // bytes [0, have) of `buf` are the unfinished line carried over from the previous read
    let buf = Buffer.allocUnsafe(2 * CHUNK);
    let have = 0;
    let consumed = 0; // file offset of buf[0]
    for (let eof = false; !eof;) {
      if (buf.length - have < CHUNK) {
        const bigger = Buffer.allocUnsafe(Math.max(2 * buf.length, have + CHUNK));
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const { bytesRead } = await handle.read(buf, have, CHUNK, null);
      eof = bytesRead === 0;
      const end = have + bytesRead;
      // the lines of this read: up to its last newline, or the unterminated tail at the end
      const upTo = eof ? end : buf.lastIndexOf(10, end - 1) + 1;
      if (upTo <= (eof ? 0 : have)) {
        have = end; // no line ends in this read
        continue;
      }
      const bad = invalidUtf8Offsets(buf, 0, upTo, 1)[0];
      const whole = bad === undefined ? upTo : bad === 0 ? 0 : buf.lastIndexOf(10, bad - 1) + 1;
      const batch: LineBatch = { texts: [], lines: [], lastUnterminated: false };
      for (let from = 0; from < whole;) {
        const to = pieceEnd(buf, from, whole);
        const text = buf.toString('utf8', from, to);
        let start = 0;
        for (let nl = text.indexOf('\n'); start < text.length; nl = text.indexOf('\n', start)) {
          if (nl < 0) batch.lastUnterminated = true;
          const stop = nl < 0 ? text.length : nl;
          const line = nonBlank(text, start, stop);
          lineNo++;
          if (line !== null) {
            batch.texts.push(line);
            batch.lines.push(lineNo);
          }
          start = stop + 1;
        }
        from = to;
      }
      if (batch.texts.length > 0) yield batch;
      if (bad !== undefined) throw invalidUtf8(displayName ?? basename(file), lineNo + 1, consumed + bad);
      consumed += upTo;
      buf.copy(buf, 0, upTo, end);
      have = end - upTo;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Where the piece of `buf[from, whole)` that starts at `from` ends: just after the last newline within
 * {@link PIECE} bytes, or after the first newline past them when one line is longer, else at `whole`.
 */
function pieceEnd(buf: Buffer, from: number, whole: number): number {
  if (whole - from <= PIECE) return whole;
  const last = buf.lastIndexOf(10, from + PIECE - 1);
  if (last >= from) return last + 1;
  const next = buf.indexOf(10, from + PIECE);
  return next >= 0 && next < whole ? next + 1 : whole;
}

/** The line `data[start, end)` without a trailing `\r`, or null when it is empty or whitespace only. */
function nonBlank(data: string, start: number, end: number): string | null {
  if (end > start && data.charCodeAt(end - 1) === 13) end--;
  if (end === start) return null;
  const text = data.slice(start, end);
  const first = text.charCodeAt(0);
  if ((first === 0x20 || first === 0x09) && text.trim() === '') return null;
  return text;
}

// bundle files are UTF-8 JSON (the SDK writes them in ASCII): such a line is refused
function invalidUtf8(file: string, line: number, offset: number): BundleReadError {
  const message = `byte ${offset} is not UTF-8 (the line is refused, not read with U+FFFD in its place)`;
  return new BundleReadError([{ code: 'invalid_utf8', file, line, path: [], message }]);
}
