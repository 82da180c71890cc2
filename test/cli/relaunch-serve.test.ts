import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gcThreadsFor } from '../../src/cli/serve-node-args.js';
import { startCliProcess } from './serve-process.js';

const entry = join(import.meta.dirname, 'fixtures', 'cli-entry.ts');

/** Command lines of the processes whose parent is `pid` (from /proc). */
async function childCommandLines(pid: number): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push((await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').join(' '));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

describe('evalstream serve re-launched with its Node options', () => {
  it('runs serve in a child with --v8-pool-size, forwards SIGTERM, and exits with its code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalstream-relaunch-'));
    const port = 20000 + Math.floor(Math.random() * 30000);
    const serve = await startCliProcess(
      ['serve', '--http', `127.0.0.1:${port}`, '--no-grpc', '--out', join(dir, 'b')],
      { entry },
    );
    const parent = serve.child;
    expect(serve.log()).toContain(`http://127.0.0.1:${port}`);
    const children = await childCommandLines(parent.pid!);
    expect(children.some((c) => c.includes(`--v8-pool-size=${gcThreadsFor(availableParallelism())}`))).toBe(
      true,
    );
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    parent.kill('SIGTERM');
    const code = await Promise.race([
      serve.exited,
      new Promise((r) => setTimeout(() => r('timeout'), 30_000)),
    ]);
    expect(code, serve.log()).toBe(0);
    expect(serve.log()).toContain('0 trials scored');
    expect(JSON.parse(await readFile(join(dir, 'b', 'summary.json'), 'utf8'))).toMatchObject({
      trial_count: 0,
    });
  });

  it('does not re-launch other commands, nor serve when a pool size is given', async () => {
    const run = (args: string[], nodeArgs: string[] = []): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry, ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });
    // `serve --help` exits 0 at once either way; with a pool size given it runs in this very process
    const helped = await run(['serve', '--help'], ['--v8-pool-size=2']);
    expect(helped.code).toBe(0);
    expect(helped.out).toContain('--no-engine-thread');
    const init = await run(['init', '--help']);
    expect(init.code).toBe(0);
  });
});
