import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/mulberry32.js';
import { Utf8StringPool } from '../../src/util/utf8-string-pool.js';

describe('Utf8StringPool', () => {
  it('gives back every string: empty, ASCII, two- and four-byte UTF-8, across many slabs', () => {
    const pool = new Utf8StringPool();
    const next = mulberry32(7);
    const alphabet = ['a', 'Z', '0', ':', 'ü', '€', '𝄞', '\u0000', '\n', '\uffff'];
    const strings: string[] = [''];
    // ~9 MB of UTF-8: more than two 4 MiB slabs
    for (let i = 0; i < 80_000; i++) {
      let s = '';
      for (let n = Math.floor(next() * 120); n > 0; n--) s += alphabet[Math.floor(next() * alphabet.length)];
      strings.push(s);
    }
    const ids = strings.map((s) => pool.add(s));
    expect(ids).toEqual(strings.map((_, i) => i));
    expect(pool.size).toBe(strings.length);
    expect(pool.bytes).toBe(strings.reduce((n, s) => n + Buffer.byteLength(s), 0));
    expect(pool.bytes).toBeGreaterThan(8 * 1024 * 1024);
    strings.forEach((s, i) => expect(pool.get(i)).toBe(s));
  });

  it('keeps a string too long for a shared slab in a slab of its own, and the shared slab goes on', () => {
    const pool = new Utf8StringPool();
    const before = pool.add('before');
    const long = '𝄞'.repeat(600_000); // 1.2M UTF-16 units, 2.4 MB of UTF-8
    const big = pool.add(long);
    const after = pool.add('after');
    expect([pool.get(before), pool.get(big) === long, pool.get(after)]).toEqual(['before', true, 'after']);
  });

  it('refuses a string with a lone surrogate (no UTF-8 form) and an id it does not hold', () => {
    const pool = new Utf8StringPool();
    expect(pool.canKeep('a\ud800b')).toBe(false);
    expect(pool.canKeep('\udc00')).toBe(false);
    expect(pool.canKeep('ok 𝄞')).toBe(true);
    expect(() => pool.add('a\ud800b')).toThrow(/lone surrogate/);
    expect(pool.tryAdd('a\ud800b')).toBe(-1);
    expect(pool.size).toBe(0);
    pool.add('x');
    expect(() => pool.get(1)).toThrow(RangeError);
    expect(() => pool.get(-1)).toThrow(RangeError);
  });
});
