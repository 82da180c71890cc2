// Python's str.splitlines boundaries: \n, \r\n, \r, \v, \f, \x1c-\x1e, \x85, \u2028, \u2029.
// eslint-disable-next-line no-control-regex -- these are the boundaries Python uses
const BOUNDARY = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/**
 * Splits text into lines exactly like Python's `str.splitlines(keepends)`: no empty last line for a
 * trailing newline, and every Unicode line boundary Python knows.
 *
 * @example
 * pySplitlines('a\nb\n'); // ['a', 'b']
 * pySplitlines('a\r\nb', true); // ['a\r\n', 'b']
 */
export function pySplitlines(text: string, keepEnds = false): string[] {
  const lines: string[] = [];
  let start = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    const end = m.index + m[0].length;
    lines.push(text.slice(start, keepEnds ? end : m.index));
    start = end;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}
