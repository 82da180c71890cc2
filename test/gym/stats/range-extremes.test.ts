import { describe, expect, it } from 'vitest';
import { rangeMax, rangeMin } from '../../../src/gym/stats/range-extremes.js';

describe('rangeMin / rangeMax', () => {
  it('skip NaN, stay within the range, and give ±Infinity for a range without values', () => {
    const v = Float64Array.of(9, NaN, 3, -2, NaN, 7, -5);
    expect([rangeMin(v, 1, 6), rangeMax(v, 1, 6)]).toEqual([-2, 7]);
    expect([rangeMin(v, 0, 7), rangeMax(v, 0, 7)]).toEqual([-5, 9]);
    expect([rangeMin(v, 1, 2), rangeMax(v, 1, 2)]).toEqual([Infinity, -Infinity]);
    expect([rangeMin(v, 3, 3), rangeMax(v, 3, 3)]).toEqual([Infinity, -Infinity]);
  });

  it('keep the first of equal values (-0 or 0, whichever comes first)', () => {
    expect(Object.is(rangeMax(Float64Array.of(-0, 0), 0, 2), -0)).toBe(true);
    expect(Object.is(rangeMin(Float64Array.of(0, -0), 0, 2), 0)).toBe(true);
  });
});
