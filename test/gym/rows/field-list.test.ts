import { describe, expect, it } from 'vitest';
import { FieldList } from '../../../src/gym/rows/field-list.js';
import { VALUE_KIND } from '../../../src/gym/rows/value-kind.js';

describe('FieldList', () => {
  it('keeps a repeated key at its first position with the last value, and forgets keys on clear', () => {
    const f = new FieldList();
    f.set(5, VALUE_KIND.int, 1, null);
    f.set(900, VALUE_KIND.float, 2.5, null);
    f.set(5, VALUE_KIND.float, 3.5, null);
    expect(f.count).toBe(2);
    expect([f.indexOf(5), f.indexOf(900), f.indexOf(6)]).toEqual([0, 1, -1]);
    expect([f.kind[0], f.value[0]]).toEqual([VALUE_KIND.float, 3.5]);
    f.clear();
    // the keys of the previous row are gone, whatever position they had
    expect([f.indexOf(5), f.indexOf(900)]).toEqual([-1, -1]);
    f.set(900, VALUE_KIND.int, 7, 12345678901234567890n);
    expect([f.indexOf(900), f.indexOf(5)]).toEqual([0, -1]);
    expect(f.big.get(0)).toBe(12345678901234567890n);
  });

  it('finds any of 100,000 keys of one row in constant time (a wide hostile row is linear)', () => {
    const f = new FieldList();
    for (let k = 0; k < 100_000; k++) f.set(k, VALUE_KIND.int, k, null);
    for (let k = 0; k < 100_000; k++) f.set(k, VALUE_KIND.int, -k, null);
    expect(f.count).toBe(100_000);
    expect([f.indexOf(99_999), f.value[99_999]]).toEqual([99_999, -99_999]);
  });
});
