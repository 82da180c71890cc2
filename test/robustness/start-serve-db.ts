import { join } from 'node:path';
import { expect } from 'vitest';
import { boundPorts, startCliProcess, type ServeProcess } from '../cli/serve-process.js';

/**
 * Starts `serve --db DIR/live.duckdb --out DIR/bundle` (OTLP/HTTP on a free port, no gRPC, no report,
 * `--flush-ms 20`, then `args`) from source in a child process, and waits up to 60 s for the port it
 * bound (or its exit).
 *
 * @example
 * const { serve, url } = await startServeDb(dir, ['--settle-ms', '0']);
 */
export async function startServeDb(
  dir: string,
  args: string[],
): Promise<{ serve: ServeProcess; url: string }> {
  const serve = await startCliProcess([
    'serve',
    '--http',
    '127.0.0.1:0',
    '--no-grpc',
    '--db',
    join(dir, 'live.duckdb'),
    '--out',
    join(dir, 'bundle'),
    '--flush-ms',
    '20',
    '--no-report',
    ...args,
  ]);
  let exited = false;
  void serve.exited.then(() => (exited = true));
  for (let i = 0; i < 1200 && !exited && boundPorts(serve.log()).http === null; i++)
    await new Promise((r) => setTimeout(r, 50));
  const port = boundPorts(serve.log()).http;
  expect(port, `exited: ${exited}; log: ${serve.log()}`).not.toBeNull();
  return { serve, url: `http://127.0.0.1:${port}` };
}
