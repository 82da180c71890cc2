/**
 * The byte offset at which JSON text `bytes` opens its `(max + 1)`-th nested array or object, or -1
 * when it never nests that deep. A scan of the bytes (strings and their escapes skipped), no parse: it
 * runs before a decoder whose recursion such text would exhaust.
 *
 * @example
 * jsonNestingPast(Buffer.from('[[[1]]]'), 2); // 2
 */
export function jsonNestingPast(bytes: Uint8Array, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c)
        i += 1; // backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      depth += 1;
      if (depth > max) return i;
    } else if (b === 0x5d || b === 0x7d) depth -= 1;
  }
  return -1;
}
