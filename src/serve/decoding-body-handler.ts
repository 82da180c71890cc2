import { BodyArena } from './body-arena.js';
import { decodeOtlpBody } from './decode-otlp-body.js';
import type { BodyHandler, ExportHandler, RequestDecoder, Saturated, Undecodable } from './serve-types.js';
import type { ExportOutcome } from './export-response.js';

/**
 * The receivers' {@link BodyHandler} on the thread that runs `handler`: copies each body into a
 * {@link BodyArena} (reused slabs, so kept bodies do not make the garbage collector's work grow),
 * decodes it from there with `decode` and hands the spans to `handler`, with a reloader that
 * decodes the same bytes again (so the handler can drop the spans and read them back later) and the
 * retained body, which the handler holds for as long as it needs it. A logs body is decoded where
 * it is (its records keep it alive, not an arena slab) and its records go to `handler.acceptLogs`.
 *
 * @example
 * const server = new OtlpHttpServer(config, decodingBodyHandler(engine, decodeExportRequest), engine);
 */
export function decodingBodyHandler(
  handler: ExportHandler,
  decode: RequestDecoder,
  arena: BodyArena = new BodyArena(),
): BodyHandler {
  return {
    saturation: () => handler.saturation(),
    isSaturated: () => handler.isSaturated(),
    waitForCapacity: (timeoutMs) => handler.waitForCapacity(timeoutMs),
    acceptBody(bytes, encoding, _waitMs, signal = 'traces'): ExportOutcome | Saturated | Undecodable {
      if (signal === 'logs') {
        let records;
        try {
          records = decodeOtlpBody(bytes, encoding, 'logs').logRecords;
        } catch (error) {
          return { undecodable: (error as Error).message };
        }
        return handler.acceptLogs(records);
      }
      const body = arena.store(bytes);
      try {
        let resourceSpans;
        try {
          resourceSpans = decode(body.bytes, encoding);
        } catch (error) {
          return { undecodable: (error as Error).message };
        }
        return handler.accept(resourceSpans, () => decode(body.bytes, encoding), body);
      } finally {
        body.release(); // this call's own hold: the handler retained the body if it kept it
      }
    },
  };
}
