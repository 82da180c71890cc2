import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { evalstreamVersion } from '../../src/bundle/evalstream-version.js';
import { registerCommands } from '../../src/cli/register-commands.js';
import { runCli } from './run-cli.js';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'evalstream.js');
const bundleDir = join(root, 'dist', 'cli');
const scratch = mkdtempSync(join(tmpdir(), 'evalstream-bundled-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `node bin/evalstream.js …`: the installed CLI, which runs the bundle the test set-up built. */
function evalstream(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the bundled worker entry `name` and resolves to its first message. */
function firstMessage(name: string, options: { workerData?: unknown; send?: unknown }): Promise<unknown> {
  const worker = new Worker(new URL(`file://${join(bundleDir, `${name}.js`)}`), {
    workerData: options.workerData,
  });
  return new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${name} exited with ${code} before answering`)));
    if (options.send !== undefined) worker.postMessage(options.send);
  }).finally(() => void worker.terminate());
}

describe('the bundled CLI (bin/evalstream.js)', () => {
  it('prints the version', () => {
    const r = evalstream(['--version']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${evalstreamVersion()}\n`);
  });

  it("loads every command and prints its help, as the sources' own program does", async () => {
    const listing = new Command('evalstream');
    await registerCommands(listing, []);
    const names = listing.commands.map((c) => c.name());
    expect(names.length).toBeGreaterThan(10);
    for (const argv of [...names.map((n) => [n]), ['gym', 'aggregate'], ['gym', 'profile']]) {
      const r = evalstream([...argv, '--help']);
      expect(r.status, `${argv.join(' ')} --help: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe((await runCli([...argv, '--help'])).stdout);
      expect(r.stdout).toMatch(new RegExp(`^Usage: evalstream ${argv.join(' ')} `));
    }
  });

  it("scores the bundled example (the README's first command) exactly as the sources do", async () => {
    const args = ['score', join(root, 'examples', 'harbor-job'), '--run-id', 'bundled-example'];
    const bundled = join(scratch, 'bundled');
    const sources = join(scratch, 'sources');
    const r = evalstream([...args, '--out', bundled]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 trials, 8 scores');
    expect((await runCli([...args, '--out', sources])).code).toBe(0);
    for (const file of ['summary.json', 'scores.jsonl', 'trials.jsonl', 'tasks.jsonl', 'stats.json']) {
      expect(readFileSync(join(bundled, file), 'utf8'), file).toBe(readFileSync(join(sources, file), 'utf8'));
    }
    expect(readFileSync(join(bundled, 'report.html'), 'utf8')).toContain('bundled-example');
  });

  it('ships each worker entry next to the chunks, where startModuleWorker looks for it', async () => {
    const started = new Set<string>();
    for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
      for (const m of text.matchAll(/startModuleWorker\(import\.meta\.url, '([\w-]+)'/g))
        started.add(m[1] as string);
    }
    expect(started.size).toBeGreaterThan(0);
    for (const name of started) expect(existsSync(join(bundleDir, `${name}.js`)), name).toBe(true);

    expect(await firstMessage('live-store-worker', { send: { type: 'close' } })).toEqual({ type: 'closed' });
    const next = new Int32Array(new SharedArrayBuffer(4));
    const emptyScan = { scan: { files: [], ranges: [], next, options: { cut: true } } };
    expect(await firstMessage('gym-worker', { send: emptyScan })).toEqual({ results: [] });
  });
});
