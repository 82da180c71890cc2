import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/**
 * OTLP logs messages as opentelemetry-proto defines them (logs/v1/logs.proto and
 * collector/logs/v1/logs_service.proto, with the common and resource messages they use).
 */
const LOGS_PROTO = `
syntax = "proto3";
package opentelemetry.proto;
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message LogRecord {
  fixed64 time_unix_nano = 1; fixed64 observed_time_unix_nano = 11; int32 severity_number = 2;
  string severity_text = 3; AnyValue body = 5; repeated KeyValue attributes = 6;
  uint32 dropped_attributes_count = 7; fixed32 flags = 8; bytes trace_id = 9; bytes span_id = 10;
  string event_name = 12;
}
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; string schema_url = 3; }
message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; string schema_url = 3; }
message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
`;

/** One received log record, with its ids in hex and its attributes as plain values. */
export interface ReceivedLogRecord {
  eventName: string;
  traceId: string;
  spanId: string;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

function plain(
  kvs: { key: string; value: Record<string, unknown> }[] | undefined,
): ReceivedLogRecord['attributes'] {
  const out: ReceivedLogRecord['attributes'] = {};
  for (const kv of kvs ?? []) {
    const v = kv.value;
    out[kv.key] = (v['stringValue'] ?? v['doubleValue'] ?? v['boolValue'] ?? Number(v['intValue'])) as string;
  }
  return out;
}

/**
 * An OTLP/HTTP logs receiver for tests: `POST /v1/logs` bodies decoded as `ExportLogsServiceRequest`
 * (protobuf), their records collected in `records`.
 *
 * @example
 * const receiver = await startLogsReceiver();
 * // … send to `${receiver.url}/v1/logs`, then read receiver.records
 * await receiver.close();
 */
export async function startLogsReceiver(): Promise<{
  url: string;
  records: ReceivedLogRecord[];
  close(): Promise<void>;
}> {
  const Request = protobuf
    .parse(LOGS_PROTO, { keepCase: false })
    .root.lookupType('opentelemetry.proto.ExportLogsServiceRequest');
  const records: ReceivedLogRecord[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = Request.toObject(Request.decode(Buffer.concat(chunks)), { bytes: String }) as {
        resourceLogs?: {
          resource?: { attributes?: { key: string; value: Record<string, unknown> }[] };
          scopeLogs?: {
            logRecords?: {
              eventName?: string;
              traceId?: string;
              spanId?: string;
              attributes?: { key: string; value: Record<string, unknown> }[];
            }[];
          }[];
        }[];
      };
      for (const rl of message.resourceLogs ?? []) {
        for (const sl of rl.scopeLogs ?? []) {
          for (const r of sl.logRecords ?? []) {
            records.push({
              eventName: r.eventName ?? '',
              traceId: Buffer.from(r.traceId ?? '', 'base64').toString('hex'),
              spanId: Buffer.from(r.spanId ?? '', 'base64').toString('hex'),
              attributes: plain(r.attributes),
              resource: plain(rl.resource?.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    records,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
