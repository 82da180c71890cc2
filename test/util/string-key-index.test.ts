import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/mulberry32.js';
import { StringKeyIndex } from '../../src/util/string-key-index.js';

describe('StringKeyIndex', () => {
  it('agrees with a Map over random sets and gets of many keys (growth, overwrites, misses)', () => {
    const index = new StringKeyIndex();
    const oracle = new Map<string, number>();
    const next = mulberry32(11);
    const pieces = ['', 'a', 'trial-', 'ü', '𝄞', '\ud800', '0', ':', 'key '];
    const key = () => {
      let k = '';
      for (let n = Math.floor(next() * 5); n > 0; n--) k += pieces[Math.floor(next() * pieces.length)];
      return k + String(Math.floor(next() * 30_000));
    };
    for (let i = 0; i < 60_000; i++) {
      const k = key();
      if (next() < 0.6) {
        index.set(k, i);
        oracle.set(k, i);
      } else {
        expect(index.get(k)).toBe(oracle.get(k));
        expect(index.has(k)).toBe(oracle.has(k));
      }
    }
    expect(index.size).toBe(oracle.size);
    for (const [k, v] of oracle) expect(index.get(k)).toBe(v);
  });

  it('tells apart keys that differ only in a lone surrogate, the empty key and prefixes', () => {
    const index = new StringKeyIndex();
    const keys = ['', 'a', 'ab', 'a\ud800', 'a\udc00', '\ud83d\udc4d', '\ud83d'];
    keys.forEach((k, i) => index.set(k, i));
    keys.forEach((k, i) => expect(index.get(k)).toBe(i));
    expect(index.get('abc')).toBeUndefined();
    expect(index.size).toBe(keys.length);
  });

  it('empties with clear and refuses values that are not non-negative integers', () => {
    const index = new StringKeyIndex();
    for (let i = 0; i < 5000; i++) index.set(`k${i}`, i);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.get('k1')).toBeUndefined();
    index.set('k1', 7);
    expect(index.get('k1')).toBe(7);
    expect(() => index.set('x', -1)).toThrow(RangeError);
    expect(() => index.set('x', 1.5)).toThrow(RangeError);
  });
});
