/**
 * Times one `evalstream gym aggregate` run of a built CLI the way a user runs it: a child process
 * (Node start-up included) that reports its own CPU time (all threads) and peak RSS when it exits.
 * Shared by `gym.bench.ts` and `gym-ab.ts`.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** What one run took. */
export interface GymCliTiming {
  /** Seconds from spawning the child to its exit. */
  wall: number;
  /** CPU seconds (user + system, all threads) of the child. */
  cpu: number;
  /** Peak RSS of the child, MB. */
  rss: number;
  /** Rows the run reported loading (null when it did not say). */
  rows: number | null;
}

/**
 * Runs `main(args)` of the built CLI module `builtMain` (`dist/src/cli/main.js`) in a child process.
 *
 * @example
 * const t = await timeGymCli('dist/src/cli/main.js', ['gym', 'aggregate', '-i', 'in.jsonl', '-o', 'out.jsonl']);
 */
export async function timeGymCli(builtMain: string, args: string[]): Promise<GymCliTiming> {
  // bin/evalstream.js, plus one stderr line with the process's resource usage
  const code =
    `const { main } = await import(${JSON.stringify(pathToFileURL(builtMain).href)});` +
    `process.exitCode = await main(${JSON.stringify(args)});` +
    `const c = process.cpuUsage();` +
    `process.stderr.write('\\n@usage ' + JSON.stringify({ cpu: (c.user + c.system) / 1e6, rss: process.resourceUsage().maxRSS }) + '\\n');`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wall = (performance.now() - t0) / 1000;
  const usage = /@usage (.*)/.exec(stderr);
  if (exit !== 0 || usage === null) throw new Error(`evalstream exited with ${exit}:\n${stderr}`);
  const u = JSON.parse(usage[1] as string) as { cpu: number; rss: number };
  const loaded = /Loaded (\d+) rollout/.exec(stdout);
  return { wall, cpu: u.cpu, rss: u.rss / 1024, rows: loaded ? Number(loaded[1]) : null };
}
