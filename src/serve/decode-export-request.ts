import { decodeOtlpBody } from './decode-otlp-body.js';
import type { RequestDecoder } from './serve-types.js';

/**
 * Decodes an OTLP/HTTP or gRPC `ExportTraceServiceRequest` body (protobuf or OTLP/JSON) into its
 * spans (see `decodeOtlpBody`); throws with the offset on bad input.
 *
 * @example
 * const resourceSpans = decodeExportRequest(body, 'protobuf');
 */
export const decodeExportRequest: RequestDecoder = (body, encoding) => [
  ...decodeOtlpBody(body, encoding, 'traces').resourceSpans,
];
