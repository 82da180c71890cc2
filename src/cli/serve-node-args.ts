/**
 * Threads V8 may use for its garbage collector's parallel work in `evalstream serve`: one fewer than
 * the cores, at least 1 and at most 4 (Node's own default is 4). On a 2-core machine serve's two
 * JavaScript threads, their collectors and the senders share the cores, and four helper threads
 * per process only add contention: bench/live took 41.0k–42.5k spans/s with one against
 * 35.4k–37.5k with four (docs/serve.md).
 */
export function gcThreadsFor(cores: number): number {
  return Math.max(1, Math.min(4, Math.floor(cores) - 1));
}

/**
 * The Node options a re-launched `serve` process gets: `--v8-pool-size` from {@link gcThreadsFor},
 * then this process's own options. Null when the user set a pool size already (in the options or
 * `NODE_OPTIONS`): then nothing is re-launched.
 *
 * @example
 * serveNodeArgs(['--import', 'tsx'], '', 2); // ['--v8-pool-size=1', '--import', 'tsx']
 */
export function serveNodeArgs(
  execArgv: readonly string[],
  nodeOptions: string,
  cores: number,
): string[] | null {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  if (given.some((a) => a === '--v8-pool-size' || a.startsWith('--v8-pool-size='))) return null;
  return [`--v8-pool-size=${gcThreadsFor(cores)}`, ...execArgv];
}
