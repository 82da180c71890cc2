import { describe, expect, it } from 'vitest';
import { formatPyFloat } from '../../src/gym/format-py-float.js';
import { stringifyPyJson } from '../../src/gym/stringify-py-json.js';

describe('formatPyFloat', () => {
  it.each([
    [1, '1.0', '1.0'],
    [0.75, '0.75', '0.75'],
    [1e-5, '0.00001', '1e-05'],
    [1e-4, '0.0001', '0.0001'],
    [1e16, '1e16', '1e+16'],
    [1e15, '1000000000000000.0', '1000000000000000.0'],
    [1.5e-7, '1.5e-7', '1.5e-07'],
    [-2.5e300, '-2.5e300', '-2.5e+300'],
    [0, '0.0', '0.0'],
    [-0, '-0.0', '-0.0'],
    [NaN, 'null', 'NaN'],
    [Infinity, 'null', 'Infinity'],
  ])('%s → orjson %s, repr %s', (x, orjson, repr) => {
    expect(formatPyFloat(x, 'orjson')).toBe(orjson);
    expect(formatPyFloat(x, 'repr')).toBe(repr);
    if (Number.isFinite(x)) expect(Number(formatPyFloat(x, 'repr'))).toBe(x);
  });
});

describe('stringifyPyJson', () => {
  it('ints as bigint, floats with a point, orjson and json.dumps layouts', () => {
    const v = { a: 2n, b: 1, c: [true, null, 'é'], d: {} };
    expect(stringifyPyJson(v)).toBe('{"a":2,"b":1.0,"c":[true,null,"é"],"d":{}}');
    expect(stringifyPyJson(v, { indent: 2 })).toBe(
      '{\n  "a": 2,\n  "b": 1.0,\n  "c": [\n    true,\n    null,\n    "é"\n  ],\n  "d": {}\n}',
    );
    expect(stringifyPyJson({ x: NaN, y: 'é' }, { indent: 4, floats: 'repr', ensureAscii: true })).toBe(
      '{\n    "x": NaN,\n    "y": "\\u00e9"\n}',
    );
  });
});
