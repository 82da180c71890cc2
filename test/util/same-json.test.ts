import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json-value.js';
import { sameJson } from '../../src/util/same-json.js';

/** The oracle: JSON text with every object's keys sorted (printed, then compared). */
function sortedText(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.map(sortedText).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedText(v[k] as JsonValue)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** JSON values from a small alphabet, so that equal and near-equal pairs are common. */
const small = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<JsonValue>(
      null,
      true,
      false,
      0,
      -0,
      1,
      1.5,
      NaN,
      Infinity,
      -Infinity,
      '',
      'a',
      '1',
      '__proto__',
    ),
    fc.array(tie('value') as fc.Arbitrary<JsonValue>, { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom('a', 'b', '0', '10', '9', '__proto__'),
      tie('value') as fc.Arbitrary<JsonValue>,
      {
        maxKeys: 3,
      },
    ),
  ),
})).value as fc.Arbitrary<JsonValue>;

/** `v` with every object's keys in reverse order (the same value). */
function reordered(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(reordered);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(v).reverse())
      Object.defineProperty(out, k, {
        value: reordered(v[k] as JsonValue),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return v;
}

describe('sameJson', () => {
  it('is true exactly when the sorted-key JSON texts are equal', () => {
    fc.assert(
      fc.property(small, small, (a, b) => {
        expect(sameJson(a, b)).toBe(sortedText(a) === sortedText(b));
        expect(sameJson(a, reordered(a))).toBe(true);
        expect(sameJson(reordered(b), a)).toBe(sortedText(a) === sortedText(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('tells arrays from objects with index keys, and values by type', () => {
    expect(sameJson([1], { '0': 1 })).toBe(false);
    expect(sameJson({ '0': 1 }, [1])).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, c: 2 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson(-0, 0)).toBe(true);
    expect(sameJson(NaN, null)).toBe(true);
  });
});
