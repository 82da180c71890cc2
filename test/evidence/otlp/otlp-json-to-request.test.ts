import { readFileSync } from 'node:fs';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { loadOtlpProtoRoot } from '../../../src/evidence/otlp/load-otlp-proto-root.js';
import { normalizeOtlpId } from '../../../src/evidence/otlp/normalize-otlp-id.js';
import { OtlpDecodeError } from '../../../src/evidence/otlp/otlp-decode-error.js';
import { otlpJsonToRequest } from '../../../src/evidence/otlp/otlp-json-to-request.js';
import type { OtlpExportRequest, OtlpSpan } from '../../../src/evidence/otlp/otlp-types.js';
import { parseLosslessJson } from '../../../src/evidence/otlp/parse-lossless-json.js';
import { decodedSpan, expectedSpan, recordSdkSpans } from './record-sdk-spans.js';

const SAMPLES = new URL('../../fixtures/otlp/samples/', import.meta.url);
const sample = (name: string): OtlpExportRequest =>
  otlpJsonToRequest(parseLosslessJson(readFileSync(new URL(name, SAMPLES), 'utf8')));
const spansOf = (r: OtlpExportRequest): OtlpSpan[] =>
  r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));

describe('otlpJsonToRequest against the OpenTelemetry JS SDK (JsonTraceSerializer)', () => {
  const recorded = recordSdkSpans();

  it('decodes every recorded span field by field', () => {
    const text = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(recorded) as Uint8Array);
    const byId = new Map(spansOf(otlpJsonToRequest(parseLosslessJson(text))).map((s) => [s.spanId, s]));
    expect(byId.size).toBe(recorded.length);
    for (const s of recorded)
      expect(decodedSpan(byId.get(s.spanContext().spanId) as OtlpSpan)).toEqual(expectedSpan(s));
  });

  it('reads protobuf canonical JSON (base64 ids, enum names, int64 strings) the same as OTLP/JSON', () => {
    const Request = loadOtlpProtoRoot().lookupType(
      'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
    );
    const message = Request.decode(ProtobufTraceSerializer.serializeRequest(recorded) as Uint8Array);
    const canonical = Request.toObject(message, { longs: String, bytes: String, enums: String });
    const text = JSON.stringify(canonical);
    expect(text).toContain('"SPAN_KIND_SERVER"');
    expect(text).toContain('"STATUS_CODE_ERROR"');
    const fromCanonical = spansOf(otlpJsonToRequest(parseLosslessJson(text))).map(decodedSpan);
    const fromOtlpJson = spansOf(
      otlpJsonToRequest(
        parseLosslessJson(
          new TextDecoder().decode(JsonTraceSerializer.serializeRequest(recorded) as Uint8Array),
        ),
      ),
    ).map(decodedSpan);
    expect(fromCanonical).toEqual(fromOtlpJson);
  });
});

describe('otlpJsonToRequest on real samples', () => {
  it('opentelemetry-proto examples/trace.json: upper-case hex ids become lowercase, string nanos exact', () => {
    const req = sample('opentelemetry-proto__examples_trace.json');
    const [s] = spansOf(req);
    expect(s?.traceId).toBe('5b8efff798038103d269b633813fc60c');
    expect(s?.spanId).toBe('eee19b7ec3c1b174');
    expect(s?.parentSpanId).toBe('eee19b7ec3c1b173');
    expect(s?.kind).toBe(2);
    expect(s?.startTimeUnixNano).toBe(1544712660000000000n);
    expect(s?.endTimeUnixNano).toBe(1544712661000000000n);
    expect(s?.attributes.getString('my.span.attr')).toBe('some value');
    expect(s?.scope.name).toBe('my.library');
    expect(s?.scope.version).toBe('1.0.0');
    expect(s?.scope.attributes.getString('my.scope.attribute')).toBe('some scope attribute');
    expect(s?.resource.attributes.getString('service.name')).toBe('my.service');
  });

  it('Tempo export: batches, instrumentationLibrarySpans, enum names, bare numbers above 2^53 kept exact', () => {
    const spans = spansOf(sample('agentevals__kagent_tempo_export_with_batches.json'));
    expect(spans).toHaveLength(86);
    const first = spans[0] as OtlpSpan;
    expect(first.traceId).toBe('dd547580319ab0312cee07f1def50dad');
    expect(first.kind).toBe(2); // SPAN_KIND_SERVER
    // written as the bare JSON number 1777555053780274700 (JSON.parse would round it)
    expect(first.startTimeUnixNano).toBe(1777555053780274700n);
    expect(first.scope.name).toBe('go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp');
    expect(first.attributes.get('server.port')).toEqual({ type: 'int', value: 8083n });
    expect(new Set(spans.map((s) => s.status.code))).toEqual(new Set([0, 1]));
  });

  it('capture-tool documents: resourceLogs next to resourceSpans become log records', () => {
    const req = sample('agentevals__adk_py_v2_default_S2.json');
    expect(spansOf(req)).toHaveLength(10);
    expect(req.logRecords).toHaveLength(15);
    expect(req.logRecords[0]?.eventName).toBe('gen_ai.system.message');
    expect(req.logRecords[0]?.spanId).toBe('979852321aeffedf');
  });

  it('accepts a bare list of ResourceSpans (SDK inline evidence data)', () => {
    const doc = parseLosslessJson(
      readFileSync(new URL('opentelemetry-proto__examples_trace.json', SAMPLES), 'utf8'),
    );
    const list = (doc as { resourceSpans: unknown[] }).resourceSpans;
    expect(spansOf(otlpJsonToRequest(list)).map((s) => s.name)).toEqual(["I'm a server span"]);
  });

  it('names the field path of a structurally wrong document', () => {
    expect(() => otlpJsonToRequest({ resourceSpans: {} })).toThrow(OtlpDecodeError);
    expect(() => otlpJsonToRequest({ resourceSpans: [{ scopeSpans: [{ spans: [7] }] }] })).toThrow(
      /resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]/,
    );
    expect(() => otlpJsonToRequest('x')).toThrow(OtlpDecodeError);
  });
});

describe('parseLosslessJson', () => {
  it('keeps integers of 16+ digits as strings, leaves the rest to JSON.parse', () => {
    expect(parseLosslessJson('{"t":1777555053780274700,"n":3,"f":1.5e3,"neg":-12345678901234567}')).toEqual({
      t: '1777555053780274700',
      n: 3,
      f: 1500,
      neg: '-12345678901234567',
    });
  });

  it('never touches digits inside strings (escapes included)', () => {
    const text = '{"s":"id 12345678901234567890 \\" 99999999999999999","x":[12345678901234567890]}';
    expect(parseLosslessJson(text)).toEqual({
      s: 'id 12345678901234567890 " 99999999999999999',
      x: ['12345678901234567890'],
    });
  });

  it('keeps decimals with many digits as numbers (only integers are protected)', () => {
    expect(parseLosslessJson('[0.12345678901234567, 1234567890123456.5]')).toEqual(
      JSON.parse('[0.12345678901234567, 1234567890123456.5]'),
    );
  });
});

describe('normalizeOtlpId', () => {
  it.each([
    ['5B8EFFF798038103D269B633813FC60C', 16, '5b8efff798038103d269b633813fc60c'],
    ['W47/95gDgQPSabYzgT/GDA==', 16, '5b8efff798038103d269b633813fc60c'],
    ['7uGbfsPBsXQ=', 8, 'eee19b7ec3c1b174'],
    // 16 hex digits are also valid base64 (of 12 bytes): the length rule reads them as hex
    ['eee19b7ec3c1b174', 8, 'eee19b7ec3c1b174'],
    ['', 8, ''],
  ] as const)('%s (%i bytes) → %s', (input, bytes, expected) => {
    expect(normalizeOtlpId(input, bytes)).toBe(expected);
  });

  it('treats absent or non-string ids as empty', () => {
    expect(normalizeOtlpId(undefined, 16)).toBe('');
    expect(normalizeOtlpId(42, 8)).toBe('');
  });
});
