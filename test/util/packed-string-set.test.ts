import { describe, expect, it } from 'vitest';
import { PackedStringSet } from '../../src/util/packed-string-set.js';
import { fnv1aUtf16 } from '../../src/util/fnv1a-utf16.js';
import { seededRandom } from '../../src/stats/seeded-random.js';

const ALPHABET = ['a', 'b', '0', '-', 'é', '€', '\ud83d\udc4d', '\ud800', '\udc00', '\u0000', '中'];

describe('PackedStringSet', () => {
  it('agrees with a Set over many random strings, lone surrogates and non-ASCII included', () => {
    const random = seededRandom(7);
    const set = new PackedStringSet();
    const oracle = new Set<string>();
    for (let i = 0; i < 30_000; i++) {
      const length = Math.floor(random() * 6);
      let s = '';
      for (let j = 0; j < length; j++) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
      if (random() < 0.5) {
        expect(set.add(s)).toBe(!oracle.has(s));
        oracle.add(s);
      } else {
        expect(set.has(s)).toBe(oracle.has(s));
      }
    }
    expect(set.size).toBe(oracle.size);
    for (const s of oracle) expect(set.has(s)).toBe(true);
  });

  it('tells apart strings whose hashes are equal', () => {
    // two ids with the same FNV-1a hash, found by search (32 bits: one is expected within ~10^5)
    const byHash = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; i < 2_000_000 && pair === null; i++) {
      const s = `id-${i}`;
      const h = fnv1aUtf16(s);
      const other = byHash.get(h);
      if (other !== undefined) pair = [other, s];
      else byHash.set(h, s);
    }
    expect(pair).not.toBeNull();
    const [x, y] = pair as [string, string];
    expect(fnv1aUtf16(x)).toBe(fnv1aUtf16(y));
    const set = new PackedStringSet();
    expect(set.add(x)).toBe(true);
    expect(set.has(y)).toBe(false);
    expect(set.add(y)).toBe(true);
    expect(set.has(x) && set.has(y)).toBe(true);
    expect(set.size).toBe(2);
  });

  it('keeps long strings and grows past its first buffers, then forgets everything with clear', () => {
    const set = new PackedStringSet();
    const long = 'x'.repeat(100_000) + '€';
    expect(set.add(long)).toBe(true);
    for (let i = 0; i < 50_000; i++) set.add(`conv-${i.toString().padStart(12, '0')}`);
    expect(set.has(long)).toBe(true);
    expect(set.has(long.slice(1))).toBe(false);
    expect(set.has('conv-000000049999')).toBe(true);
    expect(set.has('conv-000000050000')).toBe(false);
    expect(set.size).toBe(50_001);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.has('conv-000000000001')).toBe(false);
    expect(set.add('conv-000000000001')).toBe(true);
  });
});
