import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readInputFile } from '../../src/util/read-input-file.js';

const dir = mkdtempSync(join(tmpdir(), 'es-read-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readInputFile', () => {
  it('returns every byte of small and large files (read synchronously and not)', async () => {
    for (const size of [0, 1, 4096, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
      const path = join(dir, `f${size}`);
      writeFileSync(path, bytes);
      expect((await readInputFile(path)).equals(bytes), `size ${size}`).toBe(true);
    }
  });

  it('rejects with the fs error of a path that is missing or not a file', async () => {
    await expect(readInputFile(join(dir, 'absent.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readInputFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
