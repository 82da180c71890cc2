import { describe, expect, it } from 'vitest';
import { invalidUtf8Offsets } from '../../src/util/invalid-utf8-offsets.js';

describe('invalidUtf8Offsets', () => {
  it.each([
    ['ASCII', [0x61, 0x62], []],
    ['a 2-, 3- and 4-byte sequence', [...Buffer.from('é€😀')], []],
    ['a stray continuation byte', [0x61, 0x80, 0x62], [1]],
    ['0xff and 0xfe', [0xff, 0xfe], [0, 1]],
    ['a sequence cut short by ASCII', [0xe2, 0x82, 0x61], [0]],
    ['a sequence cut short by the end', [0x61, 0xf0, 0x9f, 0x98], [1]],
    ['an overlong encoding of "/"', [0xc0, 0xaf], [0, 1]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], [0, 1, 2]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], [0, 1, 2, 3]],
  ])('%s', (_what, bytes, offsets) => {
    expect(invalidUtf8Offsets(Uint8Array.from(bytes))).toEqual(offsets);
    // each offset is where Node's decoder puts a U+FFFD
    const decoded = Buffer.from(bytes).toString('utf8');
    expect([...decoded].filter((c) => c === '\ufffd').length).toBe(offsets.length);
  });

  it('looks only inside [start, end) and stops at max', () => {
    const bytes = Uint8Array.from([0xff, 0x61, 0xff, 0xff, 0xff, 0x61, 0xff]);
    expect(invalidUtf8Offsets(bytes, 1, 6)).toEqual([2, 3, 4]);
    expect(invalidUtf8Offsets(bytes, 0, bytes.length, 2)).toEqual([0, 2]);
  });
});
