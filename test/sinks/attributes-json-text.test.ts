import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyValueToJson } from '../../src/evidence/otlp/any-value-to-json.js';
import { ListAttributes } from '../../src/evidence/otlp/list-attributes.js';
import type { OtlpAnyValue, OtlpKeyValue } from '../../src/evidence/otlp/otlp-types.js';
import type { JsonObject } from '../../src/model/json-value.js';
import { attributesJsonText } from '../../src/sinks/duckdb/span-row-cells.js';
import { toJsonText } from '../../src/sinks/duckdb/to-json-text.js';

/** The oracle: what the DuckDB sink stores (StoreRows: an object of anyValueToJson values, toJsonText). */
function sinkText(list: OtlpKeyValue[]): string | null {
  const out: JsonObject = {};
  for (const kv of new ListAttributes(list).entries()) {
    Object.defineProperty(out, kv.key, {
      value: anyValueToJson(kv.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return toJsonText(out);
}

const scalar: fc.Arbitrary<OtlpAnyValue> = fc.oneof(
  fc
    .string({ unit: 'binary' })
    .map((v) => ({ type: 'string' as const, value: v, byteLength: Buffer.byteLength(v) })),
  fc.boolean().map((v) => ({ type: 'bool' as const, value: v })),
  fc.double().map((v) => ({ type: 'double' as const, value: v })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((v) => ({ type: 'int' as const, value: v })),
  fc.uint8Array({ maxLength: 8 }).map((v) => ({ type: 'bytes' as const, value: v })),
  fc.constant({ type: 'empty' } as const),
);
const key = fc.oneof(
  fc.string(),
  fc.constantFrom('0', '7', '42', '__proto__', 'a.b', 'gen_ai.input.messages'),
);
const value: fc.Arbitrary<OtlpAnyValue> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }).map((values) => ({ type: 'array' as const, values })),
  fc
    .array(fc.record({ key, value: scalar }), { maxLength: 3 })
    .map((values) => ({ type: 'kvlist' as const, values })),
);

describe('attributesJsonText', () => {
  it('gives exactly the DuckDB sink’s attribute JSON text', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key, value }), { maxLength: 6 }), (list) => {
        expect(attributesJsonText(new ListAttributes(list))).toBe(sinkText(list));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the common case directly', () => {
    const list: OtlpKeyValue[] = [
      { key: 'gen_ai.operation.name', value: { type: 'string', value: 'chat "x"\n', byteLength: 10 } },
      { key: 'gen_ai.usage.input_tokens', value: { type: 'int', value: 500n } },
      { key: 'big', value: { type: 'int', value: 2n ** 60n } },
      { key: 'ratio', value: { type: 'double', value: NaN } },
    ];
    expect(attributesJsonText(new ListAttributes(list))).toBe(
      '{"gen_ai.operation.name":"chat \\"x\\"\\n","gen_ai.usage.input_tokens":500,"big":"1152921504606846976","ratio":"NaN"}',
    );
  });
});
