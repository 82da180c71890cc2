import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/pycompat/compare-code-points.js';

/** Python's order on `str`: lexicographic on code points, a lone surrogate being its own code point. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

const units = fc.constantFrom('a', '\u00e9', '\ud83d', '\ude00', '\ud800', '\udfff', '\ue000', '\uffff', 'x');

describe('compareCodePoints', () => {
  it('orders as Python does, lone surrogates and astral characters included', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: units, maxLength: 5 }),
        fc.string({ unit: units, maxLength: 5 }),
        (a, b) => {
          expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoints(a, b)));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('puts a lone surrogate before U+E000 and an astral character after U+FFFF', () => {
    expect(['\ue000', '\ud800'].sort(compareCodePoints)).toEqual(['\ud800', '\ue000']);
    expect(['\u{1F600}', '\uffff'].sort(compareCodePoints)).toEqual(['\uffff', '\u{1F600}']);
    expect(compareCodePoints('\ud83d\ude00', '\ud83d\ue000')).toBe(1);
  });
});
