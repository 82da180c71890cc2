import type { BodyHandler, ExportHandler, RequestDecoder, Saturated, Undecodable } from './serve-types.js';
import type { ExportOutcome } from './export-response.js';

/**
 * The receivers' {@link BodyHandler} on the thread that receives: decodes each body with `decode`
 * and hands the spans to `handler`, with a reloader that decodes the same body again (so the
 * handler can drop the spans and read them back later).
 *
 * @example
 * const server = new OtlpHttpServer(config, decodingBodyHandler(engine, decodeExportRequest), engine);
 */
export function decodingBodyHandler(handler: ExportHandler, decode: RequestDecoder): BodyHandler {
  return {
    saturation: () => handler.saturation(),
    isSaturated: () => handler.isSaturated(),
    waitForCapacity: (timeoutMs) => handler.waitForCapacity(timeoutMs),
    acceptBody(body, encoding): ExportOutcome | Saturated | Undecodable {
      let resourceSpans;
      try {
        resourceSpans = decode(body, encoding);
      } catch (error) {
        return { undecodable: (error as Error).message };
      }
      return handler.accept(resourceSpans, () => decode(body, encoding));
    },
  };
}
