import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** A CLI process started by a test: its stderr so far, and its exit. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  log(): string;
  readonly exited: Promise<number | null>;
}

/**
 * Starts `node <entry> <args…>` from the project root (entry: `bin/evalstream.js`, the installed CLI
 * that the test set-up bundled, unless given; a `.ts` entry runs through tsx) and waits until stderr
 * says it listens (`OTLP/HTTP`, or `ready` when given), at most 15 s.
 *
 * @example
 * const serve = await startCliProcess(['serve', '--http', '127.0.0.1:4318', '--no-grpc']);
 * serve.child.kill('SIGTERM'); await serve.exited;
 */
export async function startCliProcess(
  args: string[],
  options: { entry?: string; ready?: string } = {},
): Promise<ServeProcess> {
  const entry = options.entry ?? join(root, 'bin', 'evalstream.js');
  const node = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  const child = spawn(process.execPath, [...node, ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const ready = options.ready ?? 'OTLP/HTTP';
  for (let i = 0; i < 300 && !log.includes(ready); i++) await new Promise((r) => setTimeout(r, 50));
  return { child, log: () => log, exited };
}

/**
 * The ports a `serve` started with `127.0.0.1:0` bound, read from its start-up line (`http://host:port`,
 * `OTLP/gRPC on host:port`); null for a receiver it did not start.
 *
 * @example
 * const { http } = boundPorts(serve.log()); // 41234
 */
export function boundPorts(log: string): { http: number | null; grpc: number | null } {
  const http = /OTLP\/HTTP \+ live API on http:\/\/[^\s:]+:(\d+)/.exec(log);
  const grpc = /OTLP\/gRPC on [^\s:]+:(\d+)/.exec(log);
  return { http: http === null ? null : Number(http[1]), grpc: grpc === null ? null : Number(grpc[1]) };
}
