/**
 * FNV-1a over a string's UTF-16 code units, as a signed 32-bit integer: a stable sampling key, not
 * a security hash.
 *
 * @example
 * fnv1aUtf16('trial-1') === fnv1aUtf16('trial-1'); // true
 */
export function fnv1aUtf16(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}
