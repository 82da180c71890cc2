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
import { lengthDelimited } from './length-delimited.js';
import { readJsonl } from './read-jsonl.js';

// Threat: one attribute value nested thousands of levels deep overflowing the stack of every reader,
// or taking the rest of its payload down with it.
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

const field = lengthDelimited;

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
  it('JSON: that value alone is refused (read as empty), with an issue naming its span, path and key', () => {
    const req = otlpJsonToRequest(parseLosslessJson(jsonRequest(3000, kind)));
    const spans = req.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    expect(spans.map((s) => s.spanId)).toEqual(['b7ad6b7169203331', 'b7ad6b7169203332']);
    expect(spans[0]?.attributes.get('deep')).toEqual({ type: 'empty' });
    expect(spans[0]?.attributes.getString('gen_ai.conversation.id')).toBe('c1');
    expect(req.issues).toEqual([
      {
        code: 'nesting_too_deep',
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        field: 'resourceSpans[0].scopeSpans[0].spans[0].attributes[1].value',
        message: "attribute 'deep' nested more than 128 levels deep: value refused (read as empty)",
        offset: null,
      },
    ]);
  });

  it('JSON: nesting up to the bound is read in full', () => {
    const req = otlpJsonToRequest(parseLosslessJson(jsonRequest(MAX_ANY_VALUE_DEPTH, kind)));
    expect(req.issues).toBeUndefined();
    let value = req.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.attributes.get('deep');
    let levels = 0;
    while (value?.type === 'array' || value?.type === 'kvlist') {
      value = value.type === 'array' ? value.values[0] : value.values[0]?.value;
      levels += 1;
    }
    expect(levels).toBe(MAX_ANY_VALUE_DEPTH);
    expect(value).toMatchObject({ type: 'string', value: 'leaf' });
  });

  it('protobuf, values checked: that value alone is refused, with its byte offset and key', () => {
    const bytes = protobufRequest(3000, kind);
    const req = decodeOtlpProtobuf(bytes, { checkValues: true });
    const span = req.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(span?.attributes.get('deep')).toEqual({ type: 'empty' });
    expect(span?.attributes.entries()).toEqual([{ key: 'deep', value: { type: 'empty' } }]);
    expect(req.issues).toHaveLength(1);
    const issue = req.issues?.[0];
    expect(issue).toMatchObject({
      code: 'nesting_too_deep',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      field: "Span.attributes['deep']",
      message: "attribute 'deep' nested more than 128 levels deep: value refused (read as empty)",
    });
    // the offset is where the first AnyValue past the bound begins
    expect(issue?.offset).toBeGreaterThan(0);
    expect(issue?.offset).toBeLessThan(bytes.length);
  });

  it('protobuf, values checked: nesting up to the bound is read in full, no issue', () => {
    const req = decodeOtlpProtobuf(protobufRequest(MAX_ANY_VALUE_DEPTH, kind), { checkValues: true });
    expect(req.issues).toBeUndefined();
    expect(req.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.attributes.get('deep')?.type).toBe(kind);
  });

  it('protobuf, unchecked: reading the value is refused with an error naming the byte offset, no stack overflow', () => {
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

  it('score (JSON lines): both spans scored in their trial, the refusal in diagnostics.jsonl with file, line and key', async () => {
    const file = join(dir, `deep-${kind}.jsonl`);
    writeFileSync(file, `${jsonRequest(3000, kind)}\n`);
    const out = join(dir, `out-${kind}`);
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const [trial] = readJsonl(join(out, 'trials.jsonl'));
    expect(trial?.['metadata']).toMatchObject({ otlp_span_count: 2 });
    expect(readJsonl(join(out, 'diagnostics.jsonl'))).toEqual([
      {
        trial_id: 'c1',
        task_id: 'c1',
        code: 'nesting_too_deep',
        message:
          "span b7ad6b7169203331: attribute 'deep' nested more than 128 levels deep: value refused (read as empty)",
        file,
        line: 1,
        offset: null,
        field: 'resourceSpans[0].scopeSpans[0].spans[0].attributes[1].value',
      },
    ]);
  });

  it('score (protobuf): the refusal in diagnostics.jsonl with file, byte offset and key', async () => {
    const file = join(dir, `deep-${kind}.binpb`);
    const bytes = protobufRequest(3000, kind);
    writeFileSync(file, bytes);
    const out = join(dir, `out-pb-${kind}`);
    const r = await runCli(['score', file, '--out', out, '--no-progress', '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    const diagnostics = readJsonl(join(out, 'diagnostics.jsonl'));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: 'nesting_too_deep',
      file,
      line: null,
      field: "Span.attributes['deep']",
    });
    expect(diagnostics[0]?.['offset']).toBe(
      decodeOtlpProtobuf(bytes, { checkValues: true }).issues?.[0]?.offset,
    );
  });
});
