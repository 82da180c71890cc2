import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import type { LiveEngine } from '../../src/serve/live-engine.js';
import { OtlpHttpServer } from '../../src/serve/otlp-http-server.js';

/**
 * An OTLP/HTTP receiver on port 0 in front of `engine` (4 MiB bodies, 16 MiB inflated, no token),
 * started with the engine's timers; resolves with the server and its base URL.
 *
 * @example
 * const { http, url } = await startEngineServer(engine);
 * // … fetch(`${url}/v1/traces`, …)
 * await http.shutdown();
 */
export async function startEngineServer(engine: LiveEngine): Promise<{ http: OtlpHttpServer; url: string }> {
  const http = new OtlpHttpServer(
    {
      host: '127.0.0.1',
      port: 0,
      token: null,
      maxBodyBytes: 4 << 20,
      maxDecompressedBytes: 16 << 20,
    },
    decodingBodyHandler(engine),
    engine,
  );
  const url = `http://127.0.0.1:${(await http.start()).port}`;
  engine.start();
  return { http, url };
}
