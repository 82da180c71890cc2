/**
 * Removes the whitespace between the tokens of one valid JSON text (bytes `src[start, end)`), keeping
 * strings and number literals byte for byte, and returns the compact bytes.
 *
 * @example
 * minifyJsonLine(Buffer.from('{ "a": [1, 2] }'), 0, 15).toString(); // '{"a":[1,2]}'
 */
export function minifyJsonLine(src: Uint8Array, start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  let o = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = src[i] as number;
    if (inString) {
      out[o++] = c;
      if (c === 0x5c) {
        out[o++] = src[++i] as number;
      } else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x22) inString = true;
    out[o++] = c;
  }
  return out.subarray(0, o);
}
