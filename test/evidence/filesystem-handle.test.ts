import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceValueError } from '../../src/evidence/evidence-value-error.js';
import { FilesystemHandle } from '../../src/evidence/filesystem-handle.js';

let dir: string;
let before: FilesystemHandle;
let after: FilesystemHandle;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fs-handle-'));
  const outside = join(dir, 'outside');
  mkdirSync(join(outside, 'sub'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  const b = join(dir, 'before');
  const a = join(dir, 'after');
  for (const root of [b, a]) mkdirSync(join(root, 'src', 'pkg'), { recursive: true });
  writeFileSync(join(b, 'src', 'keep.py'), 'same\n');
  writeFileSync(join(a, 'src', 'keep.py'), 'same\n');
  writeFileSync(join(b, 'src', 'mod.py'), 'x = 1\ny = 2\n');
  writeFileSync(join(a, 'src', 'mod.py'), 'x = 1\ny = 3\n');
  writeFileSync(join(b, 'gone.txt'), 'bye');
  writeFileSync(join(b, 'z_gone.txt'), 'bye');
  writeFileSync(join(a, 'new.txt'), 'hi');
  writeFileSync(join(a, 'src', 'pkg', 'a_new.txt'), 'hi');
  writeFileSync(join(a, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x00]));
  writeFileSync(join(b, 'bin.dat'), Buffer.from([0xff, 0x00]));
  // links: one escaping to a file, one escaping to a dir, one absolute, one inside
  symlinkSync('../outside/secret.txt', join(a, 'leak.txt'));
  symlinkSync(join(outside, 'sub'), join(a, 'escape'));
  symlinkSync('src/keep.py', join(a, 'alias.py'));
  before = new FilesystemHandle(b);
  after = new FilesystemHandle(a);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FilesystemHandle paths', () => {
  it('resolves paths under the root', async () => {
    expect(after.path('src/mod.py')).toBe(join(after.root, 'src', 'mod.py'));
    expect(after.path()).toBe(after.root);
    expect(await after.readText('src/mod.py')).toBe('x = 1\ny = 3\n');
    expect([...(await after.readBytes('bin.dat'))]).toEqual([0xff, 0xfe, 0x00]);
    expect(await after.exists('src/pkg')).toBe(true);
    expect(await after.exists('missing')).toBe(false);
  });

  it.each([
    '../outside/secret.txt',
    '/etc/passwd',
    'leak.txt',
    'escape/x',
    'escape/../secret.txt',
    'src/../../outside',
  ])('refuses %s', async (rel) => {
    expect(() => after.path(rel)).toThrow(EvidenceValueError);
    expect(() => after.path(rel)).toThrow(/resolves outside evidence root$/);
    await expect(after.readText(rel)).rejects.toBeInstanceOf(EvidenceValueError);
  });

  it('allows links that stay inside', async () => {
    expect(await after.readText('alias.py')).toBe('same\n');
  });

  it('iterPaths lists sorted entries; recursive descends real directories', async () => {
    expect(await before.iterPaths()).toEqual(['bin.dat', 'gone.txt', 'src', 'z_gone.txt']);
    expect(await before.iterPaths('src', { recursive: true })).toEqual([
      'src/keep.py',
      'src/mod.py',
      'src/pkg',
    ]);
    expect(await before.iterPaths('src/mod.py')).toEqual(['src/mod.py']);
  });

  it('listFiles: files only, glob, escaping links skipped', async () => {
    expect(await after.listFiles()).toEqual([
      'alias.py',
      'bin.dat',
      'new.txt',
      'src/keep.py',
      'src/mod.py',
      'src/pkg/a_new.txt',
    ]);
    expect(await after.listFiles('src/*.py')).toEqual(['src/keep.py', 'src/mod.py']);
    expect(await after.listFiles('**/*.txt')).toEqual(['new.txt', 'src/pkg/a_new.txt']);
  });
});

describe('FilesystemHandle diff', () => {
  it('added (sorted), then deleted, then modified, by SHA-256', async () => {
    expect((await before.diff(after)).entries).toEqual([
      { path: 'alias.py', change_type: 'added' },
      { path: 'new.txt', change_type: 'added' },
      { path: 'src/pkg/a_new.txt', change_type: 'added' },
      { path: 'gone.txt', change_type: 'deleted' },
      { path: 'z_gone.txt', change_type: 'deleted' },
      { path: 'bin.dat', change_type: 'modified' },
      { path: 'src/mod.py', change_type: 'modified' },
    ]);
    expect((await after.diff(after)).entries).toEqual([]);
  });

  it('unifiedDiff of one file; empty when identical or binary', async () => {
    expect(await before.unifiedDiff(after, 'src/mod.py')).toBe(
      '--- a/src/mod.py\n+++ b/src/mod.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n',
    );
    expect(await before.unifiedDiff(after, 'src/keep.py')).toBe('');
    expect(await before.unifiedDiff(after, 'bin.dat')).toBe('');
    expect(await before.unifiedDiff(after, 'new.txt')).toBe(
      '--- a/new.txt\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi',
    );
  });
});

describe('FilesystemHandle runVerifier', () => {
  it('runs argv without a shell in a throwaway copy with overlay files', async () => {
    const script = [
      "const fs = require('fs');",
      "console.log(fs.readFileSync('mod.py', 'utf8').trim().split('\\n').pop());",
      "console.error(fs.readFileSync('../tests/check.txt', 'utf8'));",
      "fs.writeFileSync('mod.py', 'clobbered');",
      "console.log(fs.existsSync('../leak.txt'), fs.existsSync('../escape'), fs.existsSync('../alias.py'));",
      'process.exit(3);',
    ].join('\n');
    const r = await after.runVerifier([process.execPath, '-e', script, '$HOME'], {
      cwd: 'src',
      overlayFiles: { 'tests/check.txt': 'held-out' },
    });
    expect(r).toEqual({
      exitCode: 3,
      stdout: 'y = 3\nfalse false true\n',
      stderr: 'held-out\n',
      timedOut: false,
      ok: false,
    });
    expect(readFileSync(join(after.root, 'src', 'mod.py'), 'utf8')).toBe('x = 1\ny = 3\n');
  });

  it('ok is true for exit 0', async () => {
    const r = await after.runVerifier(
      [process.execPath, '-e', 'process.stdout.write(process.argv[1])', 'a b;c'],
      {},
    );
    expect(r).toEqual({ exitCode: 0, stdout: 'a b;c', stderr: '', timedOut: false, ok: true });
  });

  it('a timeout kills the process group and gives exit code -1', async () => {
    const started = Date.now();
    const r = await after.runVerifier([process.execPath, '-e', 'setTimeout(() => {}, 30000)'], {
      timeoutS: 0.3,
    });
    expect(r).toEqual({ exitCode: -1, stdout: '', stderr: '', timedOut: true, ok: false });
    expect(Date.now() - started).toBeLessThan(10000);
  });

  it('refuses a cwd or overlay outside the copy', async () => {
    await expect(after.runVerifier(['true'], { cwd: '../..' })).rejects.toThrow(
      "verifier cwd '../..' resolves outside evidence overlay",
    );
    await expect(after.runVerifier(['true'], { overlayFiles: { '../x': 'y' } })).rejects.toThrow(
      "overlay file path escapes the verifier copy: '../x'",
    );
  });
});
