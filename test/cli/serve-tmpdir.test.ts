import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('evalstream serve with a temporary directory that cannot hold its spill file', () => {
  it('exits 1 at start-up naming the directory, before it listens or accepts a span', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'es-serve-tmpdir-'));
    // a file where a directory should be: nothing can be made below it
    const notADir = join(dir, 'file');
    writeFileSync(notADir, '');
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = notADir;
    try {
      const r = await runCli([
        'serve',
        '--http',
        '127.0.0.1:0',
        '--no-grpc',
        '--out',
        join(dir, 'out'),
        '--no-report',
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^evalstream: serve: cannot create the spill file in the temporary directory .*file \(set TMPDIR to one with room\)/,
      );
      expect(r.stderr).not.toContain('OTLP/HTTP');
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
