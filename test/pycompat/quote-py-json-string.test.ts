import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonSortKeys } from '../../src/pycompat/python-sort-keys.js';
import { quotePyJsonString } from '../../src/pycompat/quote-py-json-string.js';
import { compareCodePoints } from '../../src/pycompat/compare-code-points.js';

/** What json.dumps writes for a string: JSON.stringify's escapes, then (ensure_ascii) \uXXXX for DEL and up. */
function reference(s: string, ensureAscii: boolean): string {
  const q = JSON.stringify(s);
  return ensureAscii
    ? q.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : q;
}

// strings mixing plain ASCII with every kind of character that needs an escape
const awkward = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      'a',
      'Z',
      ' ',
      '~',
      '"',
      '\\',
      '\n',
      '\u0000',
      '\u001f',
      '\u007f',
      'é',
      '\ud800',
      '\udfff',
    ),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
});

describe('quotePyJsonString', () => {
  it('quotes as JSON.stringify and ensure_ascii do, with and without escapes', () => {
    fc.assert(
      fc.property(awkward, fc.boolean(), (s, ascii) => {
        expect(quotePyJsonString(s, ascii)).toBe(reference(s, ascii));
      }),
      { numRuns: 2000 },
    );
    expect(quotePyJsonString('plain text', true)).toBe('"plain text"');
    expect(quotePyJsonString('tab\there "q" \u007f', true)).toBe('"tab\\there \\"q\\" \\u007f"');
  });
});

describe('pythonSortKeys', () => {
  it('orders keys by code point whether or not they come in order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 4 }), { maxLength: 8 }), (keys) => {
        const expected = [...keys].sort(compareCodePoints);
        expect(pythonSortKeys([...keys])).toEqual(expected);
        expect(pythonSortKeys([...expected])).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
