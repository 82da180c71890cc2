import { describe, expect, it } from 'vitest';
import { StringKeyIndex } from '../../src/util/string-key-index.js';

describe('StringKeyIndex', () => {
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
