import { isUtf8 } from 'node:buffer';
import { invalidUtf8Offsets } from './invalid-utf8-offsets.js';

/**
 * The offset of the first byte of `buf[start, end)` that is not UTF-8, or -1 when they all are. Short
 * ASCII strings (keys, names, short values) are passed by a byte loop, which costs less than making the
 * view the native validator needs; the rest go to the native validator (from about 100 bytes on it is
 * faster than the loop, view included).
 *
 * @example
 * firstInvalidUtf8(Buffer.from([0x61, 0xff]), 0, 2); // 1
 */
export function firstInvalidUtf8(buf: Uint8Array, start: number, end: number): number {
  if (end - start <= 96) {
    let i = start;
    while (i < end && (buf[i] as number) < 0x80) i += 1;
    if (i === end) return -1;
  }
  // the usual answer, valid, costs one view and no offsets list
  if (isUtf8(new Uint8Array(buf.buffer, buf.byteOffset + start, end - start))) return -1;
  return invalidUtf8Offsets(buf, start, end, 1)[0] ?? -1;
}
