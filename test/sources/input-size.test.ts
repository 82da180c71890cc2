import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputSize } from '../../src/sources/input-size.js';

const dir = mkdtempSync(join(tmpdir(), 'input-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('inputSize', () => {
  it('adds the bytes of every file below a directory, following links, each directory once', () => {
    const job = join(dir, 'job');
    mkdirSync(join(job, 't1', 'agent'), { recursive: true });
    mkdirSync(join(job, 't2'), { recursive: true });
    writeFileSync(join(job, 't1', 'result.json'), 'x'.repeat(100));
    writeFileSync(join(job, 't1', 'agent', 'trajectory.json'), 'y'.repeat(1000));
    writeFileSync(join(job, 't2', 'result.json'), 'z'.repeat(10));
    // a link to a file counts the file; a link back up the tree (a loop) counts nothing more
    symlinkSync(join(job, 't2', 'result.json'), join(job, 't1', 'copy.json'));
    symlinkSync(job, join(job, 't2', 'loop'));
    expect(inputSize(job)).toBe(100 + 1000 + 10 + 10);
    expect(inputSize(join(job, 't1', 'agent', 'trajectory.json'))).toBe(1000);
  });

  it('counts 0 for what does not exist or cannot be listed', () => {
    expect(inputSize(join(dir, 'missing'))).toBe(0);
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(inputSize(join(dir, 'dangling'))).toBe(0);
  });
});
