import { decodeOtlpProtobuf } from '../evidence/otlp/decode-otlp-protobuf.js';
import { otlpJsonToRequest } from '../evidence/otlp/otlp-json-to-request.js';
import { parseLosslessJson } from '../evidence/otlp/parse-lossless-json.js';
import type { RequestDecoder } from './serve-types.js';

/**
 * Decodes an OTLP/HTTP or gRPC request body (`ExportTraceServiceRequest`, protobuf or OTLP/JSON)
 * with the project's own decoders; throws with the offset on bad input.
 *
 * @example
 * const resourceSpans = decodeExportRequest(body, 'protobuf');
 */
export const decodeExportRequest: RequestDecoder = (body, encoding) => {
  const request =
    encoding === 'protobuf'
      ? decodeOtlpProtobuf(body)
      : otlpJsonToRequest(
          parseLosslessJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')),
        );
  return [...request.resourceSpans];
};
