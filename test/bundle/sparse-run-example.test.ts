import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirTexts, tempDir } from './dir-files.js';
import { writeSparseRunExample } from './sparse-run-example.js';

const EXAMPLE = new URL('../../examples/sparse-run', import.meta.url).pathname;

describe('examples/sparse-run', () => {
  it('is exactly what its generator writes through toRunBundle (tasks up front or collected)', async () => {
    const expected = await dirTexts(EXAMPLE);
    for (const upFront of [true, false]) {
      const dir = join(await tempDir(), 'sparse-run');
      await writeSparseRunExample(dir, upFront);
      expect(await dirTexts(dir)).toEqual(expected);
    }
  });
});
