import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeExportRequest } from '../../../src/serve/decode-export-request.js';
import { protobufAttributesNestPast } from '../../../src/evidence/otlp/protobuf-attributes-nest-past.js';
import { MAX_ATTRIBUTE_DEPTH, tooDeepAttribute } from '../../../src/serve/too-deep-attribute.js';
import { deepAttributeRequest } from '../../serve/deep-attribute-request.js';
import { fakeAgent } from '../../serve/fake-agent.js';

const traceId = Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex');

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n & 0x7f) | 0x80);
  return [...out, n];
}

/** Field `no` of a message: length-delimited `bytes`, or a varint. */
function field(no: number, bytes: Buffer | number): Buffer {
  if (typeof bytes === 'number') return Buffer.from([no << 3, ...varint(bytes)]);
  return Buffer.concat([Buffer.from([(no << 3) | 2, ...varint(bytes.length)]), bytes]);
}

const str = (s: string): Buffer => field(1, Buffer.from(s));
const keyValue = (key: string, value: Buffer): Buffer =>
  Buffer.concat([field(1, Buffer.from(key)), field(2, value)]);

/** An AnyValue `depth` arrays / kvlists deep (in turn) around a string. */
function nested(depth: number): Buffer {
  let value = str('leaf');
  for (let i = 0; i < depth; i++)
    value =
      i % 2 === 0
        ? field(5, Buffer.concat([field(1, field(3, 1)), field(1, value)]))
        : field(6, field(1, keyValue('k', value)));
  return value;
}

/** A request of one span whose `where` attribute (the span's, an event's or a link's) nests `depth` deep. */
function request(where: 'span' | 'event' | 'link', depth: number): Buffer {
  const plain = keyValue('plain', str('x'.repeat(300)));
  const deep = keyValue('deep', nested(depth));
  const attributes = (no: number): Buffer => Buffer.concat([field(no, plain), field(no, deep)]);
  const time = Buffer.from([(7 << 3) | 1, 1, 0, 0, 0, 0, 0, 0, 0]);
  const span = Buffer.concat([
    field(1, traceId),
    field(2, Buffer.from('00000000000000aa', 'hex')),
    field(5, Buffer.from('s')),
    time,
    where === 'span' ? attributes(9) : field(9, plain),
    ...(where === 'event'
      ? [
          field(
            11,
            Buffer.concat([
              Buffer.from([(1 << 3) | 1, 1, 0, 0, 0, 0, 0, 0, 0]),
              field(2, Buffer.from('e')),
              attributes(3),
            ]),
          ),
        ]
      : []),
    ...(where === 'link'
      ? [
          field(
            13,
            Buffer.concat([
              field(1, traceId),
              field(2, Buffer.from('00000000000000bb', 'hex')),
              attributes(4),
            ]),
          ),
        ]
      : []),
  ]);
  const resource = field(1, field(1, keyValue('service.name', str('svc'))));
  return field(
    1,
    Buffer.concat([
      resource,
      field(2, Buffer.concat([field(1, field(1, Buffer.from('scope'))), field(2, span)])),
    ]),
  );
}

/** What the per-span check on decoded values says: does any span have a value too deep? */
function anyTooDeep(body: Buffer): boolean {
  return decodeExportRequest(body, 'protobuf').resourceSpans.some((rs) =>
    rs.scopeSpans.some((ss) => ss.spans.some((span) => tooDeepAttribute(span) !== null)),
  );
}

describe('protobufAttributesNestPast', () => {
  it('agrees with the check on decoded values for span, event and link attributes around the limit', () => {
    for (const where of ['span', 'event', 'link'] as const) {
      for (const depth of [
        0,
        1,
        MAX_ATTRIBUTE_DEPTH - 1,
        MAX_ATTRIBUTE_DEPTH,
        MAX_ATTRIBUTE_DEPTH + 1,
        200,
      ]) {
        const body = request(where, depth);
        const past = depth > MAX_ATTRIBUTE_DEPTH;
        expect(anyTooDeep(body), `${where} ${depth}`).toBe(past);
        expect(protobufAttributesNestPast(body, MAX_ATTRIBUTE_DEPTH), `${where} ${depth}`).toBe(past);
      }
    }
  });

  it('finds nothing deep in an agent export of the OpenTelemetry SDK', () => {
    const agent = fakeAgent(new InMemorySpanExporter());
    agent.runTrial('task', 'trial');
    const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!);
    expect(protobufAttributesNestPast(body, MAX_ATTRIBUTE_DEPTH)).toBe(false);
  });

  it('finds the crafted span thousands of levels deep after a regular request', () => {
    const agent = fakeAgent(new InMemorySpanExporter());
    agent.runTrial('task', 'trial');
    const crafted = deepAttributeRequest({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'ffffffffffff0001',
      trialId: 'trial',
      depth: 5000,
      padBytes: 10,
    });
    const body = Buffer.concat([
      ProtobufTraceSerializer.serializeRequest(agent.recorded.getFinishedSpans())!,
      crafted,
    ]);
    expect(protobufAttributesNestPast(body, MAX_ATTRIBUTE_DEPTH)).toBe(true);
  });

  it('answers true (check each span) for bytes it cannot follow to the end', () => {
    const body = request('span', 3);
    expect(protobufAttributesNestPast(body, MAX_ATTRIBUTE_DEPTH)).toBe(false);
    for (const cut of [1, 7, body.length >> 1, body.length - 1])
      expect(protobufAttributesNestPast(body.subarray(0, cut), MAX_ATTRIBUTE_DEPTH), `cut ${cut}`).toBe(true);
    const badWireType = Buffer.from(body);
    badWireType[0] = (1 << 3) | 3;
    expect(protobufAttributesNestPast(badWireType, MAX_ATTRIBUTE_DEPTH)).toBe(true);
  });
});
