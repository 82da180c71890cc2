/**
 * Compare two strings by Unicode code points, as Python's `<` on `str` (JavaScript's default sort
 * compares UTF-16 code units, which orders astral characters differently).
 *
 * @example
 * ['b', 'a'].sort(compareCodePoints); // ['a', 'b']
 * compareCodePoints('\u{1F600}', '\uFFFF'); // 1 (JS `<` says the opposite)
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800..U+DFFF) encode code points above U+FFFF, which sort after U+E000..U+FFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
