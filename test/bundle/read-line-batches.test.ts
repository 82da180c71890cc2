import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLineBatches } from '../../src/bundle/read-line-batches.js';
import { tempDir } from './dir-files.js';

async function readAll(text: string | Buffer): Promise<{ texts: string[]; lines: number[] }> {
  const file = join(await tempDir(), 'x.jsonl');
  await writeFile(file, text);
  const out = { texts: [] as string[], lines: [] as number[] };
  for await (const batch of readLineBatches(file)) {
    out.texts.push(...batch.texts);
    out.lines.push(...batch.lines);
  }
  return out;
}

describe('readLineBatches decodes ASCII and UTF-8 chunks alike', () => {
  it('ASCII lines, CRLF and blank lines', async () => {
    expect(await readAll('{"a": 1}\r\n\n  \n{"b": "\\u00e9"}\n')).toEqual({
      texts: ['{"a": 1}', '{"b": "\\u00e9"}'],
      lines: [1, 4],
    });
  });

  it('multi-byte characters, also across the 1 MiB read boundary, and latin1-range bytes', async () => {
    const long = 'x'.repeat((1 << 20) - 3);
    const lines = [`{"v": "${long}é€😀"}`, '{"v": "ÿ é"}', '{"v": "plain"}'];
    const got = await readAll(lines.join('\n') + '\n');
    expect(got.texts).toEqual(lines);
    expect(got.lines).toEqual([1, 2, 3]);
    // the same bytes decoded as one UTF-8 string
    const bytes = Buffer.from(lines.join('\n'), 'utf8');
    expect(got.texts.join('\n')).toBe(bytes.toString('utf8'));
  });
});
