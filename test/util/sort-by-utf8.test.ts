import { describe, expect, it } from 'vitest';
import { sortByUtf8 } from '../../src/util/sort-by-utf8.js';

/** Code point order, compared character by character (the oracle: UTF-8 byte order is code point order). */
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

describe('sortByUtf8', () => {
  it('orders by code point where UTF-16 order differs (U+E000–U+FFFF against astral characters)', () => {
    expect(sortByUtf8(['b', '\u{1F600}', 'a', '\uFFFD', '\uE000x'], (s) => s)).toEqual([
      'a',
      'b',
      '\uE000x',
      '\uFFFD',
      '\u{1F600}',
    ]);
  });

  it('agrees with code point order on generated names, keeps ties stable and leaves its input alone', () => {
    const alphabet = ['a', 'B', '0', '_', 'é', '\u4E2D', '\uFF21', '\u{10000}', '\u{1F600}', '-'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const names = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + (next() % 5) }, () => alphabet[next() % alphabet.length]).join(''),
    );
    const items = names.map((name, i) => ({ name, i }));
    const input = [...items];
    const sorted = sortByUtf8(items, (x) => x.name);
    expect(items).toEqual(input);
    const expected = [...items].sort((a, b) => byCodePoint(a.name, b.name) || a.i - b.i);
    expect(sorted).toEqual(expected);
  });
});
