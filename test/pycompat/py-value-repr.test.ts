import { describe, expect, it } from 'vitest';
import { pyValueRepr } from '../../src/pycompat/py-value-repr.js';

describe('pyValueRepr', () => {
  it("writes what Python's repr() writes for the equivalent value", () => {
    expect(pyValueRepr(null)).toBe('None');
    expect(pyValueRepr([true, false])).toBe('[True, False]');
    expect(pyValueRepr(['a', "it's"])).toBe(`['a', "it's"]`);
    expect(pyValueRepr({ k: 1, v: [0.5] })).toBe("{'k': 1, 'v': [0.5]}");
    expect(pyValueRepr([NaN, Infinity, -Infinity])).toBe('[nan, inf, -inf]');
  });

  it('spells floats as repr(float) does (exponent from 1e-05 down, two-digit exponents)', () => {
    expect(pyValueRepr(0.0001)).toBe('0.0001');
    expect(pyValueRepr(0.00001)).toBe('1e-05');
    expect(pyValueRepr(1e-7)).toBe('1e-07');
    expect(pyValueRepr(-2.5e-10)).toBe('-2.5e-10');
    expect(pyValueRepr(123.25)).toBe('123.25');
  });

  it('writes integral numbers as ints, exactly beyond 1e16', () => {
    expect(pyValueRepr(3)).toBe('3');
    expect(pyValueRepr(1e21)).toBe('1000000000000000000000');
    expect(pyValueRepr(12n)).toBe('12');
  });
});
