const isLead = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;
const isTrail = (u: number): boolean => u >= 0xdc00 && u <= 0xdfff;

/**
 * Compare two strings by Unicode code points, as Python's `<` on `str` (JavaScript's default sort
 * compares UTF-16 code units, which orders astral characters differently). A surrogate without its
 * partner counts as its own code point, as in Python.
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
    // a trail unit that differs belongs to the code point starting at the shared lead before it
    const at = i > 0 && isLead(a.charCodeAt(i - 1)) && (isTrail(x) || isTrail(y)) ? i - 1 : i;
    return (a.codePointAt(at) as number) < (b.codePointAt(at) as number) ? -1 : 1;
  }
  return a.length - b.length;
}
