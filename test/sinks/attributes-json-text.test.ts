import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListAttributes } from '../../src/evidence/otlp/list-attributes.js';
import type { OtlpAnyValue, OtlpKeyValue } from '../../src/evidence/otlp/otlp-types.js';
import { attributesJsonText } from '../../src/sinks/duckdb/span-row-cells.js';

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
  it('holds each distinct key once, with the last string, boolean or finite double given for it', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key, value }), { maxLength: 6 }), (list) => {
        const parsed = JSON.parse(attributesJsonText(new ListAttributes(list)) ?? 'null') as Record<
          string,
          unknown
        >;
        const last = new Map(list.map((kv) => [kv.key, kv.value]));
        expect(Object.keys(parsed).sort()).toEqual([...last.keys()].sort());
        for (const [k, v] of last) {
          const own = Object.getOwnPropertyDescriptor(parsed, k)?.value;
          if (v.type === 'string' || v.type === 'bool') expect(own).toBe(v.value);
          if (v.type === 'double' && Number.isFinite(v.value)) expect(own).toBe(v.value === 0 ? 0 : v.value);
          if (v.type === 'double' && Number.isNaN(v.value)) expect(own).toBe('NaN');
        }
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
