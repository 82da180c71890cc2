import {
  JsonLogsSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { decodeOtlpPayload } from '../../../src/evidence/otlp/decode-otlp-payload.js';
import { decodeOtlpProtobuf } from '../../../src/evidence/otlp/decode-otlp-protobuf.js';
import { loadOtlpProtoRoot } from '../../../src/evidence/otlp/load-otlp-proto-root.js';
import { OtlpDecodeError } from '../../../src/evidence/otlp/otlp-decode-error.js';
import { otlpJsonToRequest } from '../../../src/evidence/otlp/otlp-json-to-request.js';
import type { OtlpLogRecord } from '../../../src/evidence/otlp/otlp-types.js';
import { parseLosslessJson } from '../../../src/evidence/otlp/parse-lossless-json.js';
import { decodedLogRecord, expectedLogRecord, recordSdkLogs } from './record-sdk-logs.js';
import { recordSdkSpans } from './record-sdk-spans.js';

const recorded = recordSdkLogs();
const protobufBody = ProtobufLogsSerializer.serializeRequest(recorded) as Uint8Array;
const jsonBody = JsonLogsSerializer.serializeRequest(recorded) as Uint8Array;

/** Records matched to the SDK's by time (each record above has its own). */
function expectSameRecords(decoded: readonly OtlpLogRecord[]): void {
  expect(decoded).toHaveLength(recorded.length);
  const byTime = new Map(decoded.map((r) => [r.timeUnixNano, r]));
  for (const r of recorded) {
    const d = byTime.get(BigInt(r.hrTime[0]) * 1_000_000_000n + BigInt(r.hrTime[1]));
    expect(d, String(r.body ?? r.eventName)).toBeDefined();
    expect(decodedLogRecord(d!)).toEqual(expectedLogRecord(r));
  }
}

describe('OTLP logs decoding against the OpenTelemetry JS SDK', () => {
  it('decodes ProtobufLogsSerializer output field by field', () => {
    const request = decodeOtlpProtobuf(protobufBody, { signal: 'logs' });
    expect(request.resourceSpans).toEqual([]);
    expectSameRecords(request.logRecords);
  });

  it('decodes JsonLogsSerializer output field by field', () => {
    const request = otlpJsonToRequest(parseLosslessJson(Buffer.from(jsonBody).toString('utf8')));
    expect(request.resourceSpans).toEqual([]);
    expectSameRecords(request.logRecords);
  });

  it('decodes what protobufjs encodes from proto/ (LogsService messages) the same way', () => {
    const root = loadOtlpProtoRoot();
    const Request = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
    const reencoded = Request.encode(Request.decode(protobufBody)).finish();
    expectSameRecords(decodeOtlpProtobuf(reencoded, { signal: 'logs' }).logRecords);
    expect(
      root.lookupService('opentelemetry.proto.collector.logs.v1.LogsService').methods['Export'],
    ).toBeDefined();
  });

  it('tells logs frames from trace frames in a file (auto) by the first record’s wire types', () => {
    const logs = decodeOtlpProtobuf(protobufBody, { signal: 'auto' });
    expect(logs.resourceSpans).toEqual([]);
    expect(logs.logRecords).toHaveLength(recorded.length);
    const spans = recordSdkSpans();
    const traces = decodeOtlpProtobuf(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array, {
      signal: 'auto',
    });
    expect(traces.logRecords).toEqual([]);
    expect(traces.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))).toHaveLength(
      spans.length,
    );
    const frame = decodeOtlpPayload({
      kind: 'protobuf',
      bytes: protobufBody,
      offset: 0,
      bodyOffset: 4,
    } as Parameters<typeof decodeOtlpPayload>[0]);
    expect(frame.logRecords).toHaveLength(recorded.length);
  });

  it('names the byte offset of a truncated log record', () => {
    let error: unknown;
    try {
      decodeOtlpProtobuf(protobufBody.subarray(0, protobufBody.length - 5), { signal: 'logs' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OtlpDecodeError);
    expect((error as OtlpDecodeError).offset).toBeGreaterThan(0);
    expect((error as OtlpDecodeError).message).toMatch(/at byte \d+/);
  });

  it('refuses a body nested past the AnyValue depth limit when it is read, naming the field', () => {
    /** A length-delimited field (lengths here stay below 2^14: two varint bytes at most). */
    const field = (no: number, bytes: Buffer): Buffer => {
      const n = bytes.length;
      const len = n < 0x80 ? [n] : [(n & 0x7f) | 0x80, n >> 7];
      return Buffer.concat([Buffer.from([(no << 3) | 2, ...len]), bytes]);
    };
    let body = field(1, Buffer.from('leaf'));
    // AnyValue{array_value(5): ArrayValue{values(1): body}}, 200 times
    for (let i = 0; i < 200; i += 1) body = field(5, field(1, body));
    const record = Buffer.concat([field(9, Buffer.alloc(16, 1)), field(5, body)]);
    const bytes = field(1, field(2, field(2, record)));
    const [decoded] = decodeOtlpProtobuf(bytes, { signal: 'logs' }).logRecords;
    expect(decoded!.traceId).toBe('01'.repeat(16));
    expect(() => decoded!.body).toThrow(OtlpDecodeError);
    expect(() => decoded!.body).toThrow(/nested more than \d+ levels deep \(refused\) at byte \d+/);
  });

  it('names the JSON path of a log record that is not an object, and reads severities by name', () => {
    expect(() => otlpJsonToRequest({ resourceLogs: [{ scopeLogs: [{ logRecords: [{}, 7] }] }] })).toThrow(
      /resourceLogs\[0\]\.scopeLogs\[0\]\.logRecords\[1\] is not an object/,
    );
    const [record] = otlpJsonToRequest({
      resource_logs: [
        {
          scope_logs: [
            {
              log_records: [
                {
                  severity_number: 'SEVERITY_NUMBER_ERROR3',
                  observed_time_unix_nano: '1760000000000000001',
                  trace_id: '0AF7651916CD43DD8448EB211C80319C',
                },
              ],
            },
          ],
        },
      ],
    }).logRecords;
    expect(record!.severityNumber).toBe(19);
    expect(record!.timeUnixNano).toBe(1_760_000_000_000_000_001n);
    expect(record!.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });
});
