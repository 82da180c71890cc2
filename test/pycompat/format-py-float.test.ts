import { describe, expect, it } from 'vitest';
import { formatPyFloat } from '../../src/pycompat/format-py-float.js';
import { stringifyPyJson } from '../../src/pycompat/stringify-py-json.js';

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

describe('writePyJsonFile', () => {
  it('writes exactly what stringifyPyJson returns, for every kind of value', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { writePyJsonFile } = await import('./write-py-json-file.js');
    const value = {
      ints: [0n, 7n, -3n, 12345678901234567890n, 9007199254740991n],
      floats: [1, -0, 0, -2, 0.5, 1e16, 1e-7, 123456789012345.6, NaN, -Infinity, 1e15, -1e14],
      strings: ['plain', 'quote " and \\ backslash', 'tab\tnew\nline', 'é ü 漢字', ''],
      nested: { empty: {}, list: [], deep: [{ a: null, b: true, c: false }] },
      'key with "quotes"': 1n,
    };
    const dir = mkdtempSync(join(tmpdir(), 'gym-writer-'));
    for (const options of [{}, { indent: 2 }, { indent: 4, floats: 'repr' as const, ensureAscii: true }]) {
      writePyJsonFile(join(dir, 'out.json'), value, options);
      expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe(stringifyPyJson(value, options));
    }
  });
});
