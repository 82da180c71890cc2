import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { dropOutputOnClosedPipe } from '../../src/cli/drop-output-on-closed-pipe.js';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'evalstream.js');

describe('a reader that closes stdout early (`evalstream … | head`)', () => {
  it('does not stop the command: the run is written, the exit code is its own, no stack trace', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'evalstream-epipe-')), 'run');
    const child = spawn(
      process.execPath,
      [bin, 'score', join(root, 'examples', 'harbor-job'), '--out', out],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // the reader goes away before the command has printed anything: every write fails with EPIPE
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  }, 60_000);

  it('drops later writes after EPIPE and still throws any other stream error', () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    dropOutputOnClosedPipe(stream);
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    stream.emit('error', epipe);
    expect(stream.write('dropped')).toBe(true);
    expect((stream as unknown as PassThrough).read()).toBeNull();
    const other = Object.assign(new Error('write EIO'), { code: 'EIO' });
    expect(() => stream.emit('error', other)).toThrow('EIO');
  });
});
