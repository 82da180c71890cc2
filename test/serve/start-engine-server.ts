import { decodingBodyHandler } from '../../src/serve/decoding-body-handler.js';
import { LiveEngine } from '../../src/serve/live-engine.js';
import type { LiveRunThread } from '../../src/serve/live-run-thread.js';
import { OtlpHttpServer } from '../../src/serve/otlp-http-server.js';

/**
 * An OTLP/HTTP receiver on port 0 in front of `engine` (4 MiB bodies, 16 MiB inflated, no token),
 * started with the engine's timers (a `LiveRunThread` runs its own); resolves with the server and
 * its base URL.
 *
 * @example
 * const { http, url } = await startEngineServer(engine);
 * // … fetch(`${url}/v1/traces`, …)
 * await http.shutdown();
 */
export async function startEngineServer(
  engine: LiveEngine | LiveRunThread,
): Promise<{ http: OtlpHttpServer; url: string }> {
  const local = engine instanceof LiveEngine;
  const http = new OtlpHttpServer(
    {
      host: '127.0.0.1',
      port: 0,
      token: null,
      tracesPath: '/v1/traces',
      maxBodyBytes: 4 << 20,
      maxDecompressedBytes: 16 << 20,
    },
    local ? decodingBodyHandler(engine) : engine,
    engine,
  );
  const url = `http://127.0.0.1:${(await http.start()).port}`;
  if (local) engine.start();
  return { http, url };
}
