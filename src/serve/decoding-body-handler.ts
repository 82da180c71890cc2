import { decodeExportRequest } from './decode-export-request.js';
import type { BodyHandler, ExportHandler, Saturated, Undecodable } from './serve-types.js';
import type { ExportOutcome } from './export-response.js';

/**
 * The receivers' {@link BodyHandler} in front of `handler`: decodes each request body (traces or
 * logs, protobuf or OTLP/JSON, lazily: spans keep reading the body's bytes) and hands the request to
 * `handler.acceptRequest`, with a reloader that decodes the same bytes again (so the handler can
 * drop the spans and read them back later); a body that does not decode is `Undecodable` (400 /
 * INVALID_ARGUMENT).
 *
 * @example
 * const server = new OtlpHttpServer(config, decodingBodyHandler(engine), engine);
 */
export function decodingBodyHandler(handler: ExportHandler): BodyHandler {
  return {
    saturation: () => handler.saturation(),
    isSaturated: () => handler.isSaturated(),
    waitForCapacity: (timeoutMs) => handler.waitForCapacity(timeoutMs),
    acceptBody(body, encoding, signal = 'traces'): ExportOutcome | Saturated | Undecodable {
      let request;
      try {
        request = decodeExportRequest(body, encoding, signal);
      } catch (error) {
        const name = signal === 'logs' ? 'ExportLogsServiceRequest' : 'ExportTraceServiceRequest';
        return { undecodable: `request does not decode as ${name}: ${(error as Error).message}` };
      }
      return handler.acceptRequest(request, () => decodeExportRequest(body, encoding, signal));
    },
  };
}
