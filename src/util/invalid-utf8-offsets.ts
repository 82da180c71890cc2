import { isUtf8 } from 'node:buffer';

/**
 * Byte offsets in `bytes[start, end)` where a sequence that is not UTF-8 begins (a stray continuation
 * byte, a truncated or overlong sequence, a surrogate, a code point past U+10FFFF), at most `max` of
 * them, in order; `[]` for valid UTF-8 (checked first, at native speed). Each offset is where
 * decoding as UTF-8 puts a U+FFFD.
 *
 * @example
 * invalidUtf8Offsets(Buffer.from([0x61, 0xff, 0x62])); // [1]
 */
export function invalidUtf8Offsets(bytes: Uint8Array, start = 0, end = bytes.length, max = 16): number[] {
  const out: number[] = [];
  if (isUtf8(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end))) return out;
  let i = start;
  while (i < end && out.length < max) {
    const n = sequenceLength(bytes, i, end);
    if (n < 0) out.push(i);
    i += Math.abs(n);
  }
  return out;
}

/**
 * Length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or minus the length of its
 * maximal ill-formed subpart (what one U+FFFD replaces).
 */
function sequenceLength(b: Uint8Array, i: number, end: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) need = 1;
  else if (c >= 0xe0 && c <= 0xef) {
    need = 2;
    if (c === 0xe0) lo = 0xa0;
    if (c === 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    need = 3;
    if (c === 0xf0) lo = 0x90;
    if (c === 0xf4) hi = 0x8f;
  } else return -1;
  for (let k = 1; k <= need; k += 1) {
    const x = i + k < end ? (b[i + k] as number) : -1;
    if (x < lo || x > hi) return -k;
    lo = 0x80;
    hi = 0xbf;
  }
  return need + 1;
}
