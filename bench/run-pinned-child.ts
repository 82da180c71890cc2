/**
 * Child processes of the benches that time one process at a time: `node <args>` pinned to CPU 0 when
 * `taskset` exists (so a measurement is not spread over, or disturbed by, the other core), its last
 * stdout line parsed as JSON.
 */
import { spawn, spawnSync } from 'node:child_process';

/** Whether children are pinned to one core (`taskset` is installed). */
export const pinnedToOneCore = spawnSync('taskset', ['--version']).status === 0;

/** Runs `node ...args` (pinned when possible) and resolves to its last stdout line as JSON. */
export function runPinnedChild<T>(args: string[], label: string): Promise<T> {
  const [cmd, argv] = pinnedToOneCore
    ? ['taskset', ['-c', '0', process.execPath, ...args]]
    : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`${label} exited ${code}`));
      else resolve(JSON.parse(text.trim().split('\n').pop() as string) as T);
    });
  });
}
