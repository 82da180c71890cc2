import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config/load-config.js';

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

describe('evalstream init', () => {
  it('writes a starter config that loads and validates', async () => {
    const file = join(dir, 'evalstream.config.ts');
    expect((await run(['init', '--out', file])).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain("import { defineConfig } from 'evalstream';");
    // Point the package import at the source tree (the package is not built in tests), then load it.
    writeFileSync(
      file,
      text.replace("from 'evalstream'", `from '${resolve('src/config/define-config.js')}'`),
    );
    const config = await loadConfig(file);
    expect(config.metrics.default?.map((m) => m.type)).toEqual([
      'trajectory_stats',
      'token_usage',
      'tool_call_efficiency',
    ]);
    expect(config.scoring).toEqual({ concurrency: 4, timeoutMs: 60000, failFast: false });
    expect(config.labels).toEqual({ benchmark: 'demo' });
  });

  it('refuses to overwrite without --force', async () => {
    const file = join(dir, 'keep.ts');
    writeFileSync(file, 'mine');
    expect(await run(['init', '--out', file])).toEqual({
      code: 2,
      err: `evalstream: ${file} exists; use --force to overwrite it\n`,
    });
    expect(readFileSync(file, 'utf8')).toBe('mine');
    expect((await run(['init', '--out', file, '--force'])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('defineConfig');
  });
});
