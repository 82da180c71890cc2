/** FNV-1a's offset basis (32-bit). */
export const FNV1A_BASIS = 0x811c9dc5;

/**
 * FNV-1a over a string's UTF-16 code units, as a signed 32-bit integer: a table index, not a
 * security hash. `basis` (default FNV's own) lets a table start from a random one of its own.
 *
 * @example
 * fnv1aUtf16('trial-1') === fnv1aUtf16('trial-1'); // true
 */
export function fnv1aUtf16(s: string, basis: number = FNV1A_BASIS): number {
  let h = basis;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}
