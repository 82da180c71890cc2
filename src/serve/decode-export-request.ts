import { decodeOtlpProtobuf } from '../evidence/otlp/decode-otlp-protobuf.js';
import { otlpJsonToRequest } from '../evidence/otlp/otlp-json-to-request.js';
import { parseLosslessJson } from '../evidence/otlp/parse-lossless-json.js';
import { jsonNestingPast } from './json-nesting-past.js';
import { MAX_ATTRIBUTE_DEPTH } from './too-deep-attribute.js';
import type { OtlpExportRequest } from '../evidence/otlp/otlp-types.js';
import type { OtlpSignal } from './serve-types.js';

/**
 * Deepest JSON nesting of an OTLP/JSON request: the request's own structure (about 8 levels down to
 * an attribute) plus {@link MAX_ATTRIBUTE_DEPTH} levels of values of 3 JSON levels each, with room
 * to spare, so that a span whose attributes are too deep is refused by itself, not with its request.
 */
const MAX_JSON_NESTING = 16 + 4 * MAX_ATTRIBUTE_DEPTH;

/**
 * Decodes an OTLP/HTTP or gRPC request body (protobuf or OTLP/JSON) of `signal`'s export request
 * (`ExportTraceServiceRequest`, the default, or `ExportLogsServiceRequest`) with the project's own
 * decoders; throws with the offset on bad input, and on JSON nested deeper than the decoder can
 * follow.
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
  if (encoding === 'json') {
    const at = jsonNestingPast(body, MAX_JSON_NESTING);
    if (at >= 0) throw new Error(`JSON nests deeper than ${MAX_JSON_NESTING} levels at byte ${at}`);
  }
  return encoding === 'protobuf'
    ? decodeOtlpProtobuf(body, { signal })
    : otlpJsonToRequest(
        parseLosslessJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')),
      );
}
