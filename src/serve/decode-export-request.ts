import { decodeOtlpProtobuf } from '../evidence/otlp/decode-otlp-protobuf.js';
import { otlpJsonToRequest } from '../evidence/otlp/otlp-json-to-request.js';
import { parseLosslessJson } from '../evidence/otlp/parse-lossless-json.js';
import type { OtlpExportRequest } from '../evidence/otlp/otlp-types.js';
import type { OtlpSignal } from './serve-types.js';

/**
 * Decodes an OTLP/HTTP or gRPC request body (protobuf or OTLP/JSON) of `signal`'s export request
 * (`ExportTraceServiceRequest`, the default, or `ExportLogsServiceRequest`) with the project's own
 * decoders; throws with the offset on bad input. An OTLP/JSON attribute value nested past
 * `MAX_ANY_VALUE_DEPTH` is read as empty and listed in the request's `issues` (JSON.parse does not
 * recurse, and the conversion stops descending there).
 *
 * @example
 * const request = decodeExportRequest(body, 'protobuf');
 * const { logRecords } = decodeExportRequest(logsBody, 'protobuf', 'logs');
 */
export function decodeExportRequest(
  body: Uint8Array,
  encoding: 'protobuf' | 'json',
  signal: OtlpSignal = 'traces',
): OtlpExportRequest {
  return encoding === 'protobuf'
    ? decodeOtlpProtobuf(body, { signal })
    : otlpJsonToRequest(
        parseLosslessJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')),
      );
}
