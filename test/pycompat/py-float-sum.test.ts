import { describe, expect, it } from 'vitest';
import { pyFloatSum } from '../../src/pycompat/py-float-sum.js';

// Expected values are what CPython 3.12.1's built-in sum() returns for the same lists.
describe('pyFloatSum', () => {
  it.each([
    { values: [], expected: 0 },
    { values: [0.5], expected: 0.5 },
    { values: Array(10).fill(0.1), expected: 1.0 }, // naive left-to-right: 0.9999999999999999
    { values: [1e16, 1.0, -1e16], expected: 1.0 }, // naive: 0.0
    { values: [1.0, 1e100, 1.0, -1e100], expected: 2.0 },
    { values: [1e308, 1e308, -1e308], expected: Infinity }, // overflow: compensation not added
  ])('sum($values) = $expected', ({ values, expected }) => {
    expect(pyFloatSum(values)).toBe(expected);
  });

  it('starts from the int 0, so a lone -0.0 sums to +0.0 (as sum([-0.0]) == 0.0)', () => {
    expect(Object.is(pyFloatSum([-0]), 0)).toBe(true);
    expect(Object.is(pyFloatSum([-0, -0]), 0)).toBe(true);
  });

  it('sums a sub-range', () => {
    expect(pyFloatSum([5, 0.1, 0.2, 9], 1, 3)).toBe(0.1 + 0.2);
  });
});
