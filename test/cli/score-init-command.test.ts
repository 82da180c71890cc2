import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config/load-config.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'evalstream.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-init-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const e = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((c: string | Uint8Array) => ((err += c.toString()), true));
  try {
    return { code: await main(args), err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

/** The installed CLI (the bundle), run in `cwd` (a directory with no evalstream package anywhere above it). */
function cli(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('evalstream init', () => {
  it('writes a starter config that loads and validates', async () => {
    const file = join(dir, 'evalstream.config.mjs');
    expect((await run(['init', '--out', file])).code).toBe(0);
    const config = await loadConfig(file);
    expect(config.metrics.default?.map((m) => m.type)).toEqual([
      'trajectory_stats',
      'token_usage',
      'tool_call_efficiency',
    ]);
    expect(config.scoring).toEqual({ concurrency: 4, timeoutMs: 60000, failFast: false });
    expect(config.labels).toEqual({ benchmark: 'demo' });
  });

  it('writes ./evalstream.config.mjs, which a later score in the same directory picks up', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'es-init-cwd-'));
    try {
      const init = cli(['init'], cwd);
      expect(init.status, init.stderr).toBe(0);
      expect(init.stdout).toBe('wrote evalstream.config.mjs\n');
      expect(readFileSync(join(cwd, 'evalstream.config.mjs'), 'utf8')).not.toMatch(/^\s*import\b/m);
      const score = cli(
        ['score', resolve('examples/harbor-job'), '--out', 'run', '--json', '--no-report'],
        cwd,
      );
      expect(score.status, score.stderr).toBe(0);
      // the config's labels reach metadata.json: the config was loaded
      const metadata = JSON.parse(readFileSync(join(cwd, 'run', 'metadata.json'), 'utf8')) as {
        labels: unknown;
      };
      expect(metadata.labels).toEqual({ benchmark: 'demo' });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses to overwrite without --force', async () => {
    const file = join(dir, 'keep.ts');
    writeFileSync(file, 'mine');
    expect(await run(['init', '--out', file])).toEqual({
      code: 2,
      err: `evalstream: ${file} exists; use --force to overwrite it\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('mine');
    expect((await run(['init', '--out', file, '--force'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('export default {');
  });
});
