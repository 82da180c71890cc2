import { vi } from 'vitest';
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
