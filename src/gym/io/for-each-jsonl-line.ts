import { closeSync, openSync, readSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';

/** Called for each line: bytes `buf[start, end)` with surrounding whitespace stripped (Python's `bytes.strip()`). */
export type JsonlLineHandler = (
  buf: Buffer,
  start: number,
  end: number,
  lineNo: number,
  fileOffset: number,
  validUtf8: boolean,
) => void;

/** Options of {@link forEachJsonlLine}. */
export interface ForEachJsonlLineOptions {
  /** Also call the handler for blank lines (default false: they are skipped, as `gym eval aggregate` does). */
  blankLines?: boolean;
  /** Read size in bytes (default 1 MiB; longer lines grow it). */
  chunkSize?: number;
  /** Read only the bytes `[start, end)` (start must be a line start); line numbers count from there. */
  start?: number;
  end?: number;
}

/**
 * A read buffer left by the last call, reused by the next one: a thread that reads many byte ranges
 * one after the other touches its memory once (fresh pages cost more than the read itself).
 */
let spare: Buffer | null = null;

/** Python's `bytes.strip()` whitespace: space, \t, \n, \r, \v, \f. */
function isPyWhitespace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/**
 * Streams a JSONL file line by line (split on `\n` only, like Python's binary line iteration) with
 * bounded memory: each line is passed as a stripped byte range of a shared buffer, with its 1-based
 * line number, the byte offset of the stripped line in the file and whether it is valid UTF-8. The
 * buffer is reused after the handler returns. Resolves to the number of lines (blank ones included).
 *
 * @example
 * await forEachJsonlLine('rollouts.jsonl', (buf, s, e, line) => console.log(line, e - s));
 */
export async function forEachJsonlLine(
  path: string,
  handler: JsonlLineHandler,
  options: ForEachJsonlLineOptions = {},
): Promise<number> {
  // synchronous reads: each is a short copy from the page cache, cheaper than a thread-pool round trip
  const fd = openSync(path, 'r');
  try {
    const size = options.chunkSize ?? 1 << 20;
    let buf = spare !== null && spare.length === size ? spare : Buffer.allocUnsafe(size);
    spare = null;
    let start = 0;
    let end = 0;
    let bufFileOffset = options.start ?? 0; // file offset of buf[0]
    const limit = options.end ?? Infinity;
    let lineNo = 0;
    let eof = false;
    const blank = options.blankLines ?? false;
    const emit = (ls: number, le: number, utf8Ok: boolean): void => {
      lineNo++;
      let s = ls;
      let e = le;
      while (s < e && isPyWhitespace(buf[s] as number)) s++;
      while (e > s && isPyWhitespace(buf[e - 1] as number)) e--;
      if (s === e && !blank) return;
      const valid = utf8Ok || isUtf8(buf.subarray(s, e));
      handler(buf, s, e, lineNo, bufFileOffset + s, valid);
    };
    while (!eof) {
      if (start > 0) {
        buf.copy(buf, 0, start, end);
        bufFileOffset += start;
        end -= start;
        start = 0;
      }
      if (end === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, end);
        buf = bigger;
      }
      const want = Math.min(buf.length - end, limit - (bufFileOffset + end));
      const bytesRead = want <= 0 ? 0 : readSync(fd, buf, end, want, bufFileOffset + end);
      if (bytesRead === 0) eof = true;
      end += bytesRead;
      const last = eof ? end : buf.lastIndexOf(10, end - 1);
      if (last < start) continue;
      const regionEnd = eof ? end : last + 1;
      const allUtf8 = isUtf8(buf.subarray(start, regionEnd));
      while (start < end) {
        const nl = buf.indexOf(10, start);
        if (nl === -1 || nl >= end) {
          if (!eof) break;
          emit(start, end, allUtf8);
          start = end;
          break;
        }
        emit(start, nl, allUtf8);
        start = nl + 1;
      }
    }
    if (buf.length === size) spare = buf;
    return lineNo;
  } finally {
    closeSync(fd);
  }
}
