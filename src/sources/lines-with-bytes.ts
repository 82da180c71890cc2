import type { Readable } from 'node:stream';

/** One line of {@link linesWithBytes}: its text, its bytes, its 1-based number and its byte offset. */
export interface LineWithBytes {
  /** Decoded as UTF-8 (U+FFFD in place of bytes that are not), without the `\n` or `\r\n`. */
  text: string;
  /** The line's bytes (a view valid until the next line is asked for). */
  bytes: Buffer;
  line: number;
  /** Offset of the line's first byte in the stream. */
  offset: number;
  /** True for a last line with no newline after it (if it does not parse, the stream was cut off). */
  unterminated?: true;
}

/**
 * The lines of a byte stream (split on `\n`, a trailing `\r` dropped), each with its bytes and byte
 * offset, so a reader can tell bytes that are not UTF-8 from a U+FFFD written as such and say where
 * they are. Only the current chunk and the unfinished line are held.
 *
 * @example
 * for await (const { text, line } of linesWithBytes(createReadStream('rollouts.jsonl'))) console.log(line, text.length);
 */
export async function* linesWithBytes(stream: Readable): AsyncGenerator<LineWithBytes> {
  // the unfinished line: its pieces (joined once its newline arrives) and its offset
  let pending: Buffer[] = [];
  let lineOffset = 0;
  let line = 0;
  const emit = (bytes: Buffer): LineWithBytes => {
    line += 1;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const own = bytes.subarray(0, end);
    return { text: own.toString('utf8'), bytes: own, line, offset: lineOffset };
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      const whole = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      yield emit(whole);
      pending = [];
      lineOffset += whole.length + 1;
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield { ...emit(Buffer.concat(pending)), unterminated: true };
}
