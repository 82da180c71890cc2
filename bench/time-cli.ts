/**
 * Times one run of the evalstream CLI the way a user runs it: `node <entry> <args…>` in a child process
 * (Node start-up and module loading included), which reports its own CPU time (all threads) and peak
 * RSS when it exits (`bench/usage-probe.mjs`). Pinned to CPU 0 when asked and `taskset` exists.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pinnedToOneCore } from './run-pinned-child.js';

const root = join(import.meta.dirname, '..');

/** The installed CLI: `bin/evalstream.js`, which runs the bundle (`dist/cli/`). */
export const BIN = join(root, 'bin', 'evalstream.js');
/** The same program unbundled: tsc's output, one module per source file (`dist/src/`). */
export const UNBUNDLED = join(root, 'dist', 'src', 'cli', 'evalstream.js');

/** What one run took, and what it printed. */
export interface CliTiming {
  /** Seconds from spawning the child to its exit. */
  wall: number;
  /** CPU seconds (user + system, all threads) of the child. */
  cpu: number;
  /** Peak RSS of the child, bytes. */
  rss: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node entry ...args` and resolves to its timing; rejects when it exits non-zero.
 *
 * @example
 * const t = await timeCli(BIN, ['gym', 'aggregate', '-i', 'in.jsonl', '-o', 'out.jsonl']);
 */
export async function timeCli(
  entry: string,
  args: string[],
  options: { pin?: boolean; cwd?: string } = {},
): Promise<CliTiming> {
  const node = ['--import', join(import.meta.dirname, 'usage-probe.mjs'), entry, ...args];
  const [cmd, argv] =
    options.pin === true && pinnedToOneCore
      ? ['taskset', ['-c', '0', process.execPath, ...node]]
      : [process.execPath, node];
  const t0 = performance.now();
  const child = spawn(cmd as string, argv as string[], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wall = (performance.now() - t0) / 1000;
  const usage = /\n@usage (.*)\n$/.exec(stderr);
  if (exit !== 0 || usage === null) {
    throw new Error(`node ${[entry, ...args].join(' ')} exited with ${exit}:\n${stderr}`);
  }
  const u = JSON.parse(usage[1] as string) as { cpu: number; rss: number };
  return { wall, cpu: u.cpu, rss: u.rss, stdout, stderr: stderr.slice(0, usage.index) };
}
