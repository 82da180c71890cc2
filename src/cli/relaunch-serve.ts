import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, constants } from 'node:os';
import { serveNodeArgs } from './serve-node-args.js';

/** Set in the re-launched process, so that it does not re-launch itself again. */
const RELAUNCHED = 'EVALSTREAM_SERVE_RELAUNCHED';

/**
 * `evalstream serve` needs Node options that can only be given when a process starts (the garbage
 * collector's thread pool, {@link serveNodeArgs}). Run from `bin/evalstream.js`, this starts `serve`
 * again in a child process with them and resolves to the child's exit code; it resolves to null
 * (run the CLI here) for every other command, when the options are set already, or in the child.
 *
 * The child runs in its own process group, so a terminal's Ctrl-C reaches it once, through this
 * process, which forwards SIGINT, SIGTERM and SIGHUP (a second Ctrl-C is the second signal that
 * makes serve exit at once). Standard input, output and error are the child's.
 *
 * @example
 * const code = await relaunchServe(process.argv.slice(2), process.argv[1]);
 * if (code === null) process.exitCode = await main(process.argv.slice(2));
 */
export async function relaunchServe(argv: readonly string[], script: string): Promise<number | null> {
  if (argv[0] !== 'serve' || process.env[RELAUNCHED] === '1') return null;
  const nodeArgs = serveNodeArgs(process.execArgv, process.env['NODE_OPTIONS'] ?? '', availableParallelism());
  if (nodeArgs === null) return null;
  const child = spawn(process.execPath, [...nodeArgs, script, ...argv], {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, [RELAUNCHED]: '1' },
  });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, forward);
  try {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    if (code !== null) return code;
    return signal === null ? 1 : 128 + (constants.signals[signal] ?? 0);
  } finally {
    for (const signal of signals) process.off(signal, forward);
  }
}
