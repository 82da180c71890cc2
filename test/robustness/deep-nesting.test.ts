import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOtlpProtobuf } from '../../src/evidence/otlp/decode-otlp-protobuf.js';
import { MAX_ANY_VALUE_DEPTH } from '../../src/evidence/otlp/max-any-value-depth.js';
import { OtlpDecodeError } from '../../src/evidence/otlp/otlp-decode-error.js';
import { otlpJsonToRequest } from '../../src/evidence/otlp/otlp-json-to-request.js';
import { parseLosslessJson } from '../../src/evidence/otlp/parse-lossless-json.js';
import { runCli } from '../cli/run-cli.js';

// Threat: one attribute value nested thousands of levels deep overflowing the stack of every reader.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-deep-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** OTLP/JSON text of one request whose first span has an attribute `deep` nested `depth` levels. */
function jsonRequest(depth: number, kind: 'kvlist' | 'array'): string {
  const open =
    kind === 'kvlist' ? '{"kvlistValue":{"values":[{"key":"k","value":' : '{"arrayValue":{"values":[';
  const close = kind === 'kvlist' ? '}]}}' : ']}}';
  const deep = `${open.repeat(depth)}{"stringValue":"leaf"}${close.repeat(depth)}`;
  const span = (id: string, extra: string): string =>
    `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"${id}","name":"invoke_agent","kind":1,` +
    `"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000",` +
    `"attributes":[{"key":"gen_ai.conversation.id","value":{"stringValue":"c1"}}${extra}]}`;
  return (
    `{"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"x"},"spans":[` +
    `${span('b7ad6b7169203331', `,{"key":"deep","value":${deep}}`)},${span('b7ad6b7169203332', '')}]}]}]}`
  );
}

const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
};
const field = (num: number, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([(num << 3) | 2, ...varint(body.length)]), body]);
};

/** An ExportTraceServiceRequest with one span whose attribute `deep` nests `depth` AnyValues. */
function protobufRequest(depth: number, kind: 'kvlist' | 'array'): Uint8Array {
  let value = field(1, Buffer.from('leaf')); // AnyValue.string_value
  for (let i = 0; i < depth; i++) {
    value =
      kind === 'array'
        ? field(5, field(1, value)) // AnyValue.array_value → ArrayValue.values
        : field(6, field(1, field(1, Buffer.from('k')), field(2, value))); // kvlist_value → KeyValue
  }
  const span = field(
    2,
    field(1, Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex')),
    field(2, Buffer.from('b7ad6b7169203331', 'hex')),
    field(5, Buffer.from('invoke_agent')),
    field(9, field(1, Buffer.from('deep')), field(2, value)),
  );
  return field(1, field(2, span));
}

describe.each(['kvlist', 'array'] as const)('an OTLP %s value 3,000 levels deep', (kind) => {
  it('JSON: refused with an error naming the attribute, no stack overflow', () => {
    const doc = parseLosslessJson(jsonRequest(3000, kind));
    expect(() => otlpJsonToRequest(doc)).toThrow(OtlpDecodeError);
    expect(() => otlpJsonToRequest(doc)).toThrow(
      /^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[1\]\.value: nested more than 128 levels deep \(refused\)$/,
    );
  });

  it('JSON: nesting up to the bound is read in full', () => {
    const req = otlpJsonToRequest(parseLosslessJson(jsonRequest(MAX_ANY_VALUE_DEPTH, kind)));
    let value = req.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.attributes.get('deep');
    let levels = 0;
    while (value?.type === 'array' || value?.type === 'kvlist') {
      value = value.type === 'array' ? value.values[0] : value.values[0]?.value;
      levels += 1;
    }
    expect(levels).toBe(MAX_ANY_VALUE_DEPTH);
    expect(value).toMatchObject({ type: 'string', value: 'leaf' });
  });

  it('protobuf: refused with an error naming the byte offset, no stack overflow', () => {
    const req = decodeOtlpProtobuf(protobufRequest(3000, kind));
    const attrs = req.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.attributes;
    let error: unknown = null;
    try {
      attrs?.get('deep');
      attrs?.entries();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OtlpDecodeError);
    expect((error as OtlpDecodeError).message).toMatch(
      /AnyValue nested more than 128 levels deep \(refused\) at byte \d+/,
    );
    expect((error as OtlpDecodeError).offset).toBeGreaterThan(0);
  });

  it('score: exit 2 naming file, line and attribute; no crash', async () => {
    const file = join(dir, `deep-${kind}.jsonl`);
    writeFileSync(file, `${jsonRequest(3000, kind)}\n`);
    const r = await runCli([
      'score',
      file,
      '--out',
      join(dir, `out-${kind}`),
      '--no-progress',
      '--no-report',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: line 1: `);
    expect(r.stderr).toContain('attributes[1].value: nested more than 128 levels deep (refused)');
  });
});
