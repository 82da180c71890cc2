import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePythonJson } from '../../src/pycompat/parse-python-json.js';
import { PyFloat } from '../../src/pycompat/py-float.js';
import { pythonJson } from '../../src/pycompat/python-json.js';
import { stringifyPyJson } from '../../src/pycompat/stringify-py-json.js';
import type { WireValue } from '../../src/pycompat/wire-value.js';

// Expected texts were produced by CPython 3.11 json.dumps (see test/fixtures/bundle/gen_python_json_vectors.py).
const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/bundle/python-json-vectors.json', import.meta.url), 'utf8'),
) as {
  floats: [string, string, string][];
  strings: [string, string][];
  keys: [Record<string, number>, string];
  nested_inline: string;
  nested_indent: string;
  nested: WireValue;
};

/** Boxes every non-integral-looking number the way the Python source had floats (2.0, 0.0, 1.0, 0.5). */
function boxFloats(value: WireValue, floatKeys: Set<string>): WireValue {
  if (Array.isArray(value)) return value.map((v) => boxFloats(v as WireValue, floatKeys));
  if (value !== null && typeof value === 'object' && !(value instanceof PyFloat)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        typeof v === 'number' && floatKeys.has(k) ? new PyFloat(v) : boxFloats(v as WireValue, floatKeys),
      ]),
    );
  }
  return value;
}

describe('pythonJson', () => {
  it(`prints ${vectors.floats.length} floats exactly like Python repr / json.dumps`, () => {
    for (const [, repr, dumped] of vectors.floats) {
      const value = Number(repr);
      expect(pythonJson(new PyFloat(value)), repr).toBe(dumped);
      expect(pythonJson(new PyFloat(value))).toBe(repr);
    }
  });

  it('prints Python float forms for the documented edge cases', () => {
    expect(pythonJson(new PyFloat(1))).toBe('1.0');
    expect(pythonJson(new PyFloat(1e-5))).toBe('1e-05');
    expect(pythonJson(new PyFloat(1.5e16))).toBe('1.5e+16');
    expect(pythonJson(new PyFloat(1e16))).toBe('1e+16');
    expect(pythonJson(new PyFloat(-0))).toBe('-0.0');
    expect(pythonJson(new PyFloat(0.0001))).toBe('0.0001');
    expect(pythonJson(new PyFloat(NaN))).toBe('NaN');
    expect(pythonJson(new PyFloat(-Infinity))).toBe('-Infinity');
  });

  it('prints plain numbers as ints when integral and non-finite plain numbers as null', () => {
    expect(pythonJson([1, 0.5, -0, 2 ** 53, 1e21, NaN, Infinity])).toBe(
      '[1, 0.5, 0, 9007199254740992, 1000000000000000000000, null, null]',
    );
  });

  it('escapes strings with ensure_ascii=True', () => {
    for (const [s, dumped] of vectors.strings) expect(pythonJson(s)).toBe(dumped);
  });

  it('sorts keys by code point, not UTF-16 unit', () => {
    expect(pythonJson(vectors.keys[0])).toBe(vectors.keys[1]);
  });

  it('matches json.dumps inline and with indent=2, including empty containers', () => {
    const floatKeys = new Set(['mean', 'p10', 'p100']);
    const boxed = boxFloats(vectors.nested, floatKeys);
    // the nested list holds 2.0 at nested[2][1][0]
    const nested = (boxed as { nested: WireValue[][] }).nested;
    (nested[2]![1] as WireValue[])[0] = new PyFloat(2);
    expect(pythonJson(boxed)).toBe(vectors.nested_inline);
    expect(pythonJson(boxed, { indent: 2 })).toBe(vectors.nested_indent);
  });
  it('quotes a key as each layout escapes it, whatever was written before', () => {
    const value = { é: 1, '\u{1F600}': [2] };
    expect(pythonJson(value)).toBe('{"\\u00e9": 1, "\\ud83d\\ude00": [2]}');
    expect(stringifyPyJson(value, { floats: 'repr', sortKeys: true, numbers: 'wire' })).toBe(
      '{"é": 1, "\u{1F600}": [2]}',
    );
    expect(stringifyPyJson(value, { numbers: 'wire' })).toBe('{"é":1,"\u{1F600}":[2]}');
    expect(pythonJson(value)).toBe('{"\\u00e9": 1, "\\ud83d\\ude00": [2]}');
  });

  it('writes many distinct keys the same way', () => {
    const row = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    const again = pythonJson(row);
    expect(JSON.parse(again)).toEqual(row);
    expect(pythonJson(row)).toBe(again);
  });
});

describe('parsePythonJson', () => {
  it('records integral float literals so they are written back as floats', () => {
    const text = '{"a": 1.0, "b": [2, 3.0, {"c": 1e+16}], "d": 0.5, "e": -0.0, "f": 1}';
    const parsed = parsePythonJson(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual({ a: 1, b: [2, 3, { c: 1e16 }], d: 0.5, e: -0, f: 1 });
    expect([...(parsed.floatPaths ?? [])].sort()).toEqual(['a', 'b\u00001', 'b\u00002\u0000c', 'e']);
    expect(pythonJson(parsed.value, { floatPaths: parsed.floatPaths })).toBe(text);
  });

  it('round-trips the Python-written fixture texts byte for byte', () => {
    for (const text of [vectors.nested_inline, vectors.nested_indent, vectors.keys[1]]) {
      const parsed = parsePythonJson(text);
      if (!parsed.ok) throw new Error(parsed.message);
      const indent = text.includes('\n') ? 2 : undefined;
      expect(pythonJson(parsed.value, { floatPaths: parsed.floatPaths, ...(indent ? { indent } : {}) })).toBe(
        text,
      );
    }
    const floats = vectors.floats.map((f) => f[2]).join(', ');
    const parsed = parsePythonJson(`[${floats}]`);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(pythonJson(parsed.value, { floatPaths: parsed.floatPaths })).toBe(`[${floats}]`);
  });

  it('accepts the NaN / Infinity literals Python writes for float fields', () => {
    const parsed = parsePythonJson('{"x": NaN, "y": -Infinity, "z": Infinity}');
    expect(parsed.ok && parsed.value).toEqual({ x: NaN, y: -Infinity, z: Infinity });
  });

  it('reports the offset of a syntax error', () => {
    expect(parsePythonJson('{"a": 1,}')).toEqual({
      ok: false,
      offset: 8,
      message: 'expected a property name in double quotes',
    });
    expect(parsePythonJson('{"a": 01}')).toMatchObject({ ok: false, offset: 6 });
    expect(parsePythonJson('{"a": "x')).toMatchObject({
      ok: false,
      offset: 6,
      message: 'unterminated string',
    });
    expect(parsePythonJson('[1] 2')).toMatchObject({ ok: false, offset: 4 });
    expect(parsePythonJson('{"a": "\u0001"}')).toMatchObject({ ok: false, offset: 6 });
  });

  it('keeps a "__proto__" key as data', () => {
    const parsed = parsePythonJson('{"__proto__": {"x": 1.0}}');
    expect(parsed.ok && Object.keys(parsed.value as object)).toEqual(['__proto__']);
    if (parsed.ok)
      expect(pythonJson(parsed.value, { floatPaths: parsed.floatPaths })).toBe('{"__proto__": {"x": 1.0}}');
  });
});
