/**
 * Orders strings by Unicode code point, as Python's `sorted()` does (JavaScript's default sort
 * compares UTF-16 units, which differs for characters beyond U+FFFF).
 *
 * @example
 * ['b', 'a', 'B'].sort(comparePyStrings); // ['B', 'a', 'b']
 */
export function comparePyStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
