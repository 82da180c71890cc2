import { existsSync } from 'node:fs';

/** A run named on the command line: a path, and the run id after `#` when one was given. */
export interface RunRef {
  path: string;
  runId: string | null;
}

/**
 * Splits `store.duckdb#RUN_ID` (or `export-dir#RUN_ID`) into the path and the run id. An argument
 * that exists as given is a path whole (a `#` may be part of a file name); otherwise the run id is
 * what follows the last `#`.
 *
 * @example
 * parseRunRef('runs/all.duckdb#R2'); // { path: 'runs/all.duckdb', runId: 'R2' }
 * parseRunRef('runs/a'); // { path: 'runs/a', runId: null }
 */
export function parseRunRef(arg: string): RunRef {
  const at = arg.lastIndexOf('#');
  if (existsSync(arg) || at <= 0 || at === arg.length - 1) return { path: arg, runId: null };
  return { path: arg.slice(0, at), runId: arg.slice(at + 1) };
}
