import { expect, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/**
 * Runs the CLI in process (`main(args)`) with stdout and stderr captured as text.
 *
 * @example
 * const r = await runCli(['summarize', 'examples/sparse-run', '--out', dir]);
 * expect(r.code, r.stderr).toBe(0);
 */
export async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/**
 * `evalstream query --db DB --format json SQL` in process; fails the test on a non-zero exit.
 *
 * @example
 * const [row] = await queryJson(db, 'select count(*) as n from trials');
 */
export async function queryJson(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const r = await runCli(['query', '--db', db, '--format', 'json', sql]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
}
