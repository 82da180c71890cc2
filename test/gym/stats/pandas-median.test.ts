import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pandasMedian } from '../../../src/gym/stats/pandas-median.js';

/** The reference: sort the non-NaN values (Float64Array order: -0 before +0) and take the middle. */
function sortedMedian(values: number[]): number {
  const s = Float64Array.from(values.filter((x) => x === x)).sort();
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

describe('pandasMedian above 32 values (selection instead of a sort)', () => {
  it('equals the sorted middle, signed zeros and duplicates included', () => {
    const value = fc.oneof(
      fc.constantFrom(0, -0, 1, -1, 0.5),
      fc.integer({ min: -3, max: 3 }),
      fc.double({ noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 33, maxLength: 300, size: 'max' }),
        fc.array(fc.nat()),
        (numbers, gaps) => {
          const values = [...numbers];
          for (const g of gaps) values.splice(g % (values.length + 1), 0, NaN);
          expect(Object.is(pandasMedian(values), sortedMedian(values))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
    expect(Object.is(pandasMedian([...Array(20).fill(-0), ...Array(20).fill(0)]), -0 / 2 + 0 / 2)).toBe(true);
    expect(Object.is(pandasMedian([...Array(21).fill(-0), ...Array(20).fill(0)]), -0)).toBe(true);
  });
});
