import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previousSummary } from '../../src/bundle/previous-summary.js';
import { tempDir } from './dir-files.js';

// not a valid summary: when the runner mark is found the file is parsed, and that fails with a warning
async function scan(text: string): Promise<{ size: number | null; warnings: number }> {
  const dir = await tempDir();
  await writeFile(join(dir, 'summary.json'), text);
  const previous = await previousSummary(dir);
  return { size: previous.size, warnings: previous.warnings.length };
}

describe('previousSummary looks for runner aggregates in the whole old file', () => {
  const READ = 4 << 20;
  it('finds the mark split across two reads, and at the very end', async () => {
    for (const at of [READ - 3, READ - 1, READ, 2 * READ - 4]) {
      const text = 'x'.repeat(at) + '"runner.' + 'y'.repeat(10);
      expect(await scan(text)).toEqual({ size: text.length, warnings: 1 });
    }
    expect(await scan('{"scores": "runner.x"}')).toEqual({ size: 22, warnings: 1 });
  });

  it('does not parse a file without it', async () => {
    expect(await scan('x'.repeat(READ + 100) + '"runner')).toEqual({ size: READ + 107, warnings: 0 });
    expect(await dirWithout()).toEqual({ size: null, runnerScores: [], warnings: [] });
  });
});

async function dirWithout(): Promise<unknown> {
  return previousSummary(await tempDir());
}
