import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortInPlace } from '../../src/util/sort-in-place.js';

describe('sortInPlace', () => {
  it('sorts in place, stably, like Array.prototype.sort, short and long lists', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.nat()), { maxLength: 60, size: 'max' }),
        (pairs) => {
          const byFirst = (a: [number, number], b: [number, number]): number => a[0] - b[0];
          const list = pairs.map((p) => [...p] as [number, number]);
          const same = sortInPlace(list, byFirst);
          expect(same).toBe(list);
          expect(list).toEqual([...pairs].sort(byFirst));
        },
      ),
    );
  });

  it('leaves empty and one-element lists alone', () => {
    expect(sortInPlace([], (a: number, b: number) => a - b)).toEqual([]);
    expect(sortInPlace([7], (a, b) => a - b)).toEqual([7]);
  });
});
