/**
 * `items` sorted by the UTF-8 bytes of `key(item)`, i.e. by code point, the order Python sorts `str`
 * and `bytes` paths in (a JavaScript `<` on strings compares UTF-16 units, which puts U+E000–U+FFFF
 * after characters beyond U+FFFF). Each key is encoded once. Stable; returns a new array.
 *
 * @example
 * sortByUtf8(['b', 'a', '\u{1F600}', '\uFFFD'], (s) => s); // ['a', 'b', '\uFFFD', '\u{1F600}']
 */
export function sortByUtf8<T>(items: readonly T[], key: (item: T) => string): T[] {
  const keyed = items.map((item) => ({ item, bytes: Buffer.from(key(item)) }));
  keyed.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  return keyed.map((k) => k.item);
}
