import type protobuf from 'protobufjs';
import { loadOtlpProtoRoot } from './load-otlp-proto-root.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { otlpJsonToRequest } from './otlp-json-to-request.js';
import type { OtlpExportRequest } from './otlp-types.js';

let requestType: protobuf.Type | null = null;

/**
 * Decodes a binary `ExportTraceServiceRequest` the plain way: protobufjs reflection (`Type.decode`)
 * over `proto/`, everything materialised, then converted through its proto3 JSON form. Slower than
 * `decodeOtlpProtobuf`; kept as an independent path to compare against (tests, `bench/ingest`).
 *
 * @example
 * const req = decodeOtlpProtobufReflection(bytes); // same spans as decodeOtlpProtobuf(bytes)
 */
export function decodeOtlpProtobufReflection(bytes: Uint8Array): OtlpExportRequest {
  requestType ??= loadOtlpProtoRoot().lookupType(
    'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
  );
  let message: protobuf.Message;
  try {
    message = requestType.decode(bytes);
  } catch (error) {
    const offset = /index out of range: (\d+)/.exec((error as Error).message)?.[1];
    throw new OtlpDecodeError(`truncated or corrupt protobuf: ${(error as Error).message}`, {
      offset: offset === undefined ? null : Number(offset),
    });
  }
  const json = requestType.toObject(message, { longs: String, bytes: String, enums: Number });
  return otlpJsonToRequest(json);
}
