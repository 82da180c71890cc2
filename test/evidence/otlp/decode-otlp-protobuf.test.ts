import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlpProtobuf } from '../../../src/evidence/otlp/decode-otlp-protobuf.js';
import { decodeOtlpProtobufReflection } from '../../../src/evidence/otlp/decode-otlp-protobuf-reflection.js';
import { loadOtlpProtoRoot } from '../../../src/evidence/otlp/load-otlp-proto-root.js';
import { OtlpDecodeError } from '../../../src/evidence/otlp/otlp-decode-error.js';
import type { OtlpExportRequest, OtlpSpan } from '../../../src/evidence/otlp/otlp-types.js';
import { decodedSpan, expectedSpan, plainValue, recordSdkSpans } from './record-sdk-spans.js';

const spansOf = (r: OtlpExportRequest): OtlpSpan[] =>
  r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));

/** A length-delimited protobuf field, written by hand. */
const ld = (field: number, body: number[]): number[] => {
  const len: number[] = [];
  for (let n = body.length; ; n >>>= 7) {
    if (n < 0x80) {
      len.push(n);
      break;
    }
    len.push((n & 0x7f) | 0x80);
  }
  return [(field << 3) | 2, ...len, ...body];
};

const Request = loadOtlpProtoRoot().lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);

describe('decodeOtlpProtobuf against the OpenTelemetry JS SDK (ProtobufTraceSerializer)', () => {
  const recorded = recordSdkSpans();
  const bytes = ProtobufTraceSerializer.serializeRequest(recorded) as Uint8Array;

  it('decodes every recorded span field by field', () => {
    const decoded = spansOf(decodeOtlpProtobuf(bytes));
    expect(decoded).toHaveLength(recorded.length);
    const byId = new Map(decoded.map((s) => [s.spanId, s]));
    for (const s of recorded) {
      const d = byId.get(s.spanContext().spanId);
      expect(d, s.name).toBeDefined();
      expect(decodedSpan(d as OtlpSpan)).toEqual(expectedSpan(s));
    }
  });

  it('keeps the attributes of each request readable after other requests are decoded (and after one fails)', () => {
    // a request's spans share one attribute index, filled in when its decode ends
    const first = spansOf(decodeOtlpProtobuf(bytes));
    const other = ProtobufTraceSerializer.serializeRequest(recorded.slice(1, 3).reverse()) as Uint8Array;
    const second = spansOf(decodeOtlpProtobuf(other));
    expect(second).toHaveLength(2);
    expect(() => decodeOtlpProtobuf(bytes.subarray(0, bytes.length - 3))).toThrow(OtlpDecodeError);
    const third = spansOf(decodeOtlpProtobuf(bytes));
    const byId = new Map(recorded.map((s) => [s.spanContext().spanId, s]));
    for (const decoded of [first, second, third])
      for (const d of decoded) expect(decodedSpan(d)).toEqual(expectedSpan(byId.get(d.spanId)!));
  });

  it('keeps every attribute of a request whose index outgrows the reused scratch, and of requests after it', () => {
    // 300 spans of 1,000 attributes: 1.2M index entries, past the scratch kept between requests
    const spanCount = 300;
    const perSpan = 1000;
    const msg = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: Array.from({ length: spanCount }, (_, i) => ({
                traceId: Buffer.alloc(16, 7),
                spanId: Buffer.alloc(8, (i % 250) + 1),
                name: `span ${i}`,
                attributes: Array.from({ length: perSpan }, (_, j) => ({
                  key: `k${j}`,
                  value: { intValue: i * perSpan + j },
                })),
              })),
            },
          ],
        },
      ],
    };
    const huge = spansOf(decodeOtlpProtobuf(Request.encode(Request.fromObject(msg)).finish()));
    const small = spansOf(decodeOtlpProtobuf(bytes));
    const byId = new Map(recorded.map((s) => [s.spanContext().spanId, s]));
    for (const d of small) expect(decodedSpan(d)).toEqual(expectedSpan(byId.get(d.spanId)!));
    expect(huge).toHaveLength(spanCount);
    huge.forEach((span, i) => {
      const entries = span.attributes.entries();
      expect(entries).toHaveLength(perSpan);
      entries.forEach(({ key, value }, j) => {
        if (key !== `k${j}` || value.type !== 'int' || value.value !== BigInt(i * perSpan + j))
          expect({ span: i, key, value }).toEqual({
            span: i,
            key: `k${j}`,
            value: { type: 'int', value: BigInt(i * perSpan + j) },
          });
      });
    });
  });

  it('keeps the SDK grouping: one ResourceSpans per resource, one ScopeSpans per scope', () => {
    const req = decodeOtlpProtobuf(bytes);
    const layout = req.resourceSpans.map((rs) => ({
      service: rs.resource.attributes.getString('service.name'),
      scopes: rs.scopeSpans.map((ss) => ss.scope.name).sort(),
    }));
    expect(layout.sort((a, b) => String(a.service).localeCompare(String(b.service)))).toEqual([
      { service: 'agent', scopes: ['agent.lib', 'llm.lib'] },
      { service: 'tools', scopes: ['tool.lib'] },
    ]);
  });

  it('agrees with the plain protobufjs reflection decode', () => {
    const fast = spansOf(decodeOtlpProtobuf(bytes)).map(decodedSpan);
    const slow = spansOf(decodeOtlpProtobufReflection(bytes)).map(decodedSpan);
    expect(fast).toEqual(slow);
  });

  it('keeps a multi-kilobyte multi-byte string as a slice until read, then decodes it exactly', () => {
    const chat = spansOf(decodeOtlpProtobuf(bytes)).find((s) => s.name === 'chat gpt-4.1') as OtlpSpan;
    const v = chat.attributes.get('gen_ai.input.messages');
    expect(v?.type).toBe('string');
    if (v?.type !== 'string') return;
    const source = recorded.find((s) => s.name === 'chat gpt-4.1')?.attributes[
      'gen_ai.input.messages'
    ] as string;
    expect(v.byteLength).toBe(Buffer.byteLength(source));
    expect(v.value).toBe(source);
  });
});

describe('decodeOtlpProtobuf on hand-encoded requests', () => {
  const message = {
    resourceSpans: [
      {
        // scope_spans before resource on the wire is legal; spans must still see their resource
        scopeSpans: [
          {
            spans: [
              {
                traceId: Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'),
                spanId: Buffer.from('eee19b7ec3c1b174', 'hex'),
                name: 'all value types',
                kind: 3,
                startTimeUnixNano: '18446744073709551615',
                endTimeUnixNano: '1',
                attributes: [
                  { key: 'i', value: { intValue: '-9223372036854775808' } },
                  { key: 'u', value: { intValue: '9223372036854775807' } },
                  { key: 'd', value: { doubleValue: -0.5 } },
                  { key: 'b', value: { bytesValue: Buffer.from([0, 1, 255]) } },
                  {
                    key: 'kv',
                    value: {
                      kvlistValue: {
                        values: [
                          {
                            key: 'x',
                            value: { arrayValue: { values: [{ stringValue: 'é' }, { boolValue: true }] } },
                          },
                          { key: 'empty', value: {} },
                        ],
                      },
                    },
                  },
                  { key: 'dup', value: { stringValue: 'first' } },
                  { key: 'dup', value: { stringValue: 'last' } },
                ],
                status: { code: 2, message: 'bad' },
              },
            ],
          },
        ],
        resource: {
          attributes: [{ key: 'service.name', value: { stringValue: 'late' } }],
          droppedAttributesCount: 4,
        },
      },
    ],
  };
  const bytes = Request.encode(Request.fromObject(message)).finish();

  it('reads every AnyValue type, 64-bit extremes exactly, last duplicate key wins', () => {
    const [span] = spansOf(decodeOtlpProtobuf(bytes));
    const a = span?.attributes;
    expect(span?.startTimeUnixNano).toBe(18446744073709551615n);
    expect(span?.parentSpanId).toBe('');
    expect(a?.get('i')).toEqual({ type: 'int', value: -9223372036854775808n });
    expect(a?.get('u')).toEqual({ type: 'int', value: 9223372036854775807n });
    expect(a?.get('d')).toEqual({ type: 'double', value: -0.5 });
    const b = a?.get('b');
    expect(b?.type === 'bytes' ? [...b.value] : null).toEqual([0, 1, 255]);
    expect(plainValue(a?.get('kv') as never)).toEqual({
      type: 'kvlist',
      values: [
        {
          key: 'x',
          value: {
            type: 'array',
            values: [
              { type: 'string', value: 'é' },
              { type: 'bool', value: true },
            ],
          },
        },
        { key: 'empty', value: { type: 'empty' } },
      ],
    });
    expect(a?.getString('dup')).toBe('last');
    expect(a?.getString('missing')).toBeUndefined();
    expect(a?.keys()).toEqual(['i', 'u', 'd', 'b', 'kv', 'dup', 'dup']);
    expect(span?.status).toEqual({ code: 2, message: 'bad' });
    expect(span?.resource.attributes.getString('service.name')).toBe('late');
    expect(span?.resource.droppedAttributesCount).toBe(4);
  });

  it('reads the scalar fields of each span as the reflection decode does, in a request of several spans', () => {
    const tid = (n: number): Buffer => Buffer.alloc(16, n);
    const span = (i: number, trace: number, extra: object) => ({
      traceId: tid(trace),
      spanId: Buffer.alloc(8, i + 1),
      name: `span ${i}`,
      startTimeUnixNano: String(1_760_000_000_000_000_000n + BigInt(i)),
      endTimeUnixNano: String(1_760_000_001_000_000_000n + BigInt(i)),
      ...extra,
    });
    const msg = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span(0, 7, { flags: 0x80000301, kind: 2, traceState: 'a=1,b=2', droppedAttributesCount: 3 }),
                span(1, 7, { droppedEventsCount: 5, droppedLinksCount: 6, parentSpanId: Buffer.alloc(8, 1) }),
                span(2, 9, { status: { code: 1 }, flags: 0x100 }),
                span(3, 7, { status: { message: 'only a message' } }),
              ],
            },
          ],
        },
      ],
    };
    const raw = Request.encode(Request.fromObject(msg)).finish();
    const scalars = (s: OtlpSpan) => ({
      traceId: s.traceId,
      spanId: s.spanId,
      parentSpanId: s.parentSpanId,
      traceState: s.traceState,
      name: s.name,
      kind: s.kind,
      flags: s.flags,
      start: s.startTimeUnixNano,
      end: s.endTimeUnixNano,
      droppedAttributesCount: s.droppedAttributesCount,
      droppedEventsCount: s.droppedEventsCount,
      droppedLinksCount: s.droppedLinksCount,
      status: s.status,
    });
    const fast = spansOf(decodeOtlpProtobuf(raw)).map(scalars);
    // another request decoded in between must not disturb the first one's spans
    const first = spansOf(decodeOtlpProtobuf(raw));
    decodeOtlpProtobuf(bytes);
    expect(first.map(scalars)).toEqual(fast);
    expect(fast).toEqual(spansOf(decodeOtlpProtobufReflection(raw)).map(scalars));
    expect(fast[0]).toMatchObject({
      flags: 0x80000301,
      kind: 2,
      traceState: 'a=1,b=2',
      droppedAttributesCount: 3,
    });
    expect(fast[1]).toMatchObject({ droppedEventsCount: 5, droppedLinksCount: 6, traceId: '07'.repeat(16) });
    expect(fast[3]?.status).toEqual({ code: 0, message: 'only a message' });
  });

  it('refuses a message over the 2 GiB protobuf limit before reading it', () => {
    // only the length is looked at (a real 2 GiB buffer is not needed to check the limit)
    const huge = { length: 2 ** 31 } as Uint8Array;
    expect(() => decodeOtlpProtobuf(huge)).toThrow(
      new OtlpDecodeError(`message of ${2 ** 31} bytes: over protobuf's 2 GiB limit`, { offset: 0 }),
    );
  });

  it('looks keys up exactly (last duplicate wins, near misses do not match)', () => {
    const attributes = [
      { key: 'gen_ai.tool.name', value: { stringValue: 'first' } },
      { key: '', value: { stringValue: 'empty key' } },
      { key: 'gen_ai.tool.namE', value: { stringValue: 'case differs' } },
      // same length and last byte, first byte differs; same length and prefix, last byte differs
      { key: 'Gen_ai.output.ids', value: { stringValue: 'first byte' } },
      { key: 'gen_ai.output.idz', value: { stringValue: 'last byte' } },
      { key: 'gen_ai.tool.nam', value: { stringValue: 'prefix' } },
      { key: 'x.gen_ai.tool.name', value: { stringValue: 'suffix' } },
      { key: 'gen_ai.usage.input_tokens', value: { intValue: 12 } },
      { key: 'gen_ai.tool.name', value: { stringValue: 'last' } },
      { key: 'error.type', value: {} },
    ];
    const msg = {
      resourceSpans: [
        {
          scopeSpans: [{ spans: [{ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), attributes }] }],
        },
      ],
    };
    const raw = Request.encode(Request.fromObject(msg)).finish();
    const [span] = spansOf(decodeOtlpProtobuf(raw));
    const a = span?.attributes;
    expect(a?.getString('gen_ai.tool.name')).toBe('last');
    expect(a?.getString('gen_ai.tool.namE')).toBe('case differs');
    expect(a?.getString('Gen_ai.output.ids')).toBe('first byte');
    expect(a?.getString('gen_ai.output.idz')).toBe('last byte');
    expect(a?.has('gen_ai.output.ids')).toBe(false);
    expect(a?.getString('')).toBe('empty key');
    expect(a?.getString('gen_ai.tool.nam')).toBe('prefix');
    expect(a?.getString('x.gen_ai.tool.name')).toBe('suffix');
    expect(a?.get('gen_ai.usage.input_tokens')).toEqual({ type: 'int', value: 12n });
    expect(a?.get('error.type')).toEqual({ type: 'empty' });
    expect(a?.has('gen_ai.usage.output_tokens')).toBe(false);
    expect(a?.get('tool.name')).toBeUndefined();
    expect(a?.entries().map((e) => [e.key, plainValue(e.value as never)])).toEqual(
      spansOf(decodeOtlpProtobufReflection(raw))[0]
        ?.attributes.entries()
        .map((e) => [e.key, plainValue(e.value as never)]),
    );
  });

  it('reads any int64 attribute and any fixed64 time exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (i, t) => {
          const msg = {
            resourceSpans: [
              {
                scopeSpans: [
                  {
                    spans: [
                      {
                        traceId: Buffer.alloc(16, 1),
                        spanId: Buffer.alloc(8, 2),
                        startTimeUnixNano: t.toString(),
                        attributes: [{ key: 'gen_ai.usage.input_tokens', value: { intValue: i.toString() } }],
                      },
                    ],
                  },
                ],
              },
            ],
          };
          const [span] = spansOf(decodeOtlpProtobuf(Request.encode(Request.fromObject(msg)).finish()));
          expect(span?.attributes.get('gen_ai.usage.input_tokens')).toEqual({ type: 'int', value: i });
          expect(span?.startTimeUnixNano).toBe(t);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('getString returns what get returns for a string value, and undefined for any other value', () => {
    // AnyValue encodings written by hand, including ones the plain-string fast path must not take:
    // a string field repeated (the last wins), a string followed by another field, a 2-byte length
    const utf8 = (t: string): number[] => [...Buffer.from(t, 'utf8')];
    const long = 'é'.repeat(200);
    const values: [string, number[]][] = [
      ['plain', ld(1, utf8('hello'))],
      ['empty string', ld(1, [])],
      ['repeated', [...ld(1, utf8('first')), ...ld(1, utf8('second'))]],
      ['string then int', [...ld(1, utf8('s')), 3 << 3, 7]],
      ['int then string', [3 << 3, 7, ...ld(1, utf8('after'))]],
      ['long', ld(1, utf8(long))],
      ['int', [3 << 3, 42]],
      ['bool', [2 << 3, 1]],
      ['no value', []],
    ];
    const attributes = values.flatMap(([key, value]) => ld(9, [...ld(1, utf8(key)), ...ld(2, value)]));
    const span = [...ld(1, Array(16).fill(1)), ...ld(2, Array(8).fill(2)), ...attributes];
    const raw = Uint8Array.from(ld(1, ld(2, ld(2, span))));
    const [decoded] = spansOf(decodeOtlpProtobuf(raw));
    const [reflected] = spansOf(decodeOtlpProtobufReflection(raw));
    const got = values.map(([key]) => [key, decoded?.attributes.getString(key)]);
    expect(got).toEqual([
      ['plain', 'hello'],
      ['empty string', ''],
      ['repeated', 'second'],
      ['string then int', undefined],
      ['int then string', 'after'],
      ['long', long],
      ['int', undefined],
      ['bool', undefined],
      ['no value', undefined],
    ]);
    // the same as the reflection decode's values
    for (const [key] of values) {
      const v = reflected?.attributes.get(key);
      expect(decoded?.attributes.getString(key), key).toBe(v?.type === 'string' ? v.value : undefined);
    }
  });

  it('says an attribute list may nest whenever a value holds an array or kvlist, and not for scalars', () => {
    const scalar = fc.oneof(
      fc.string().map((stringValue) => ({ stringValue })),
      fc.boolean().map((boolValue) => ({ boolValue })),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((i) => ({ intValue: i.toString() })),
      fc.double().map((doubleValue) => ({ doubleValue })),
      fc.constant({}),
    );
    const nested = fc.oneof(
      fc.array(scalar, { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
      fc
        .array(fc.record({ key: fc.string(), value: scalar }), { maxLength: 3 })
        .map((values) => ({ kvlistValue: { values } })),
    );
    const value = fc.oneof(
      scalar,
      scalar,
      nested,
      fc.uint8Array({ maxLength: 4 }).map((b) => ({ bytesValue: b })),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.string(), value }), { maxLength: 6 }), (attributes) => {
        const span = { traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), attributes };
        const raw = Request.encode(
          Request.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }),
        );
        const [decoded] = spansOf(decodeOtlpProtobuf(raw.finish()));
        const types = decoded?.attributes.entries().map((kv) => kv.value.type) ?? [];
        const nests = types.some((t) => t === 'array' || t === 'kvlist');
        // bytes values are not looked into: they count as nesting
        expect(decoded?.attributes.mayNest()).toBe(nests || types.includes('bytes'));
      }),
      { numRuns: 300 },
    );
    // a string field followed by an array field decodes as the array (the last field wins)
    const wire = [...ld(1, [...Buffer.from('s')]), ...ld(5, ld(1, []))];
    const span = [
      ...ld(1, Array(16).fill(1)),
      ...ld(2, Array(8).fill(2)),
      ...ld(9, [...ld(1, [107]), ...ld(2, wire)]),
    ];
    const bytes = Uint8Array.from(ld(1, ld(2, ld(2, span))));
    const [decoded] = spansOf(decodeOtlpProtobuf(bytes));
    expect(decoded?.attributes.get('k')?.type).toBe('array');
    expect(decoded?.attributes.mayNest()).toBe(true);
  });

  it('agrees with reflection on the same bytes', () => {
    expect(spansOf(decodeOtlpProtobuf(bytes)).map(decodedSpan)).toEqual(
      spansOf(decodeOtlpProtobufReflection(bytes)).map(decodedSpan),
    );
  });

  it('skips unknown fields (newer producers stay readable)', () => {
    // field 99 (varint) before the request's field 1, and field 50 (bytes) inside the span
    const span = Buffer.from([0x2a, 0x01, 0x78, 0x92, 0x03, 0x02, 0x68, 0x69]); // name 'x' + field 50 'hi'
    const scopeSpans = Buffer.concat([Buffer.from([0x12, span.length]), span]);
    const rs = Buffer.concat([Buffer.from([0x12, scopeSpans.length]), scopeSpans]);
    const req = Buffer.concat([Buffer.from([0x98, 0x06, 0x07]), Buffer.from([0x0a, rs.length]), rs]);
    expect(spansOf(decodeOtlpProtobuf(req)).map((s) => s.name)).toEqual(['x']);
  });

  it('reports truncation with a byte offset', () => {
    const cut = bytes.subarray(0, bytes.length - 5);
    expect(() => decodeOtlpProtobuf(cut)).toThrow(OtlpDecodeError);
    try {
      decodeOtlpProtobuf(cut);
    } catch (e) {
      expect((e as OtlpDecodeError).offset).toBeTypeOf('number');
      expect((e as OtlpDecodeError).message).toMatch(/at byte \d+/);
    }
  });

  it('any prefix either decodes or fails with OtlpDecodeError, never anything else', () => {
    const full = ProtobufTraceSerializer.serializeRequest(recordSdkSpans()) as Uint8Array;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: full.length }), (n) => {
        try {
          const req = decodeOtlpProtobuf(full.subarray(0, n));
          for (const s of spansOf(req)) void [s.traceId, s.name, s.startTimeUnixNano];
        } catch (e) {
          if (!(e instanceof OtlpDecodeError)) throw e;
          expect(e.offset).toBeGreaterThanOrEqual(0);
          expect(e.offset).toBeLessThanOrEqual(n);
        }
      }),
      { numRuns: 300 },
    );
  });
});
