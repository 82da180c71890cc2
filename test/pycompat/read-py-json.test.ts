import { describe, expect, it } from 'vitest';
import { readPyJson } from '../../src/pycompat/read-py-json.js';

describe('readPyJson', () => {
  it('reads ints as bigint (any number of digits) and floats as number', () => {
    expect(readPyJson('{"n": 2, "mean": 1.0, "e": 1e3, "big": 12345678901234567890, "neg": -0}')).toEqual({
      n: 2n,
      mean: 1,
      e: 1000,
      big: 12345678901234567890n,
      neg: 0n,
    });
    expect(readPyJson('[1, [2.5, {"a": [3]}], "x", true, null]')).toEqual([
      1n,
      [2.5, { a: [3n] }],
      'x',
      true,
      null,
    ]);
    expect(readPyJson(' 7 ')).toBe(7n);
    expect(readPyJson('7.0')).toBe(7);
  });

  it('decodes escaped keys and strings; a repeated key takes its last value; __proto__ is a plain key', () => {
    const v = readPyJson('{"\\u0061":"\\"}\\\\","b":1,"a":"x","__proto__":{"p":1}}') as Record<
      string,
      unknown
    >;
    expect(Object.keys(v)).toEqual(['a', 'b', '__proto__']);
    expect(v['a']).toBe('x');
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('throws JSON.parse errors for malformed text', () => {
    expect(() => readPyJson('{"a": 1,}')).toThrow(SyntaxError);
    expect(() => readPyJson('NaN')).toThrow(SyntaxError);
  });
});
