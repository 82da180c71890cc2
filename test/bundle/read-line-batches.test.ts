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

describe('readLineBatches gives the lines of the whole text, wherever reads and decoded pieces end', () => {
  /** The oracle: the file decoded as one string and split at newlines. */
  function oracle(text: string): { texts: string[]; lines: number[] } {
    const out = { texts: [] as string[], lines: [] as number[] };
    const all = text.split('\n');
    if (all[all.length - 1] === '') all.pop();
    all.forEach((raw, i) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') return;
      out.texts.push(line);
      out.lines.push(i + 1);
    });
    return out;
  }

  it('lines of many lengths around the 64 KiB pieces and 1 MiB reads, one longer than a read', async () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const lines: string[] = [];
    let bytes = 0;
    while (bytes < 3.5 * (1 << 20)) {
      const pick = next(10);
      const length = pick === 0 ? 65536 + next(3) - 1 : pick === 1 ? 0 : next(3000);
      const line = (pick === 2 ? 'é😀' : '') + 'y'.repeat(length) + (pick === 3 ? '\r' : '');
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
    lines.splice(40, 0, 'z'.repeat((1 << 20) + 17));
    for (const ending of ['\n', '']) {
      const text = lines.join('\n') + ending;
      const got = await readAll(text);
      const want = oracle(text);
      expect(got.lines).toEqual(want.lines);
      expect(got.texts.length).toBe(want.texts.length);
      expect(got.texts.every((t, i) => t === want.texts[i])).toBe(true);
    }
  });

  it('names the line of a byte that is not UTF-8 past the first pieces', async () => {
    const head = Array.from({ length: 300 }, (_, i) => `{"i": ${i}, "pad": "${'p'.repeat(500)}"}`).join('\n');
    const file = join(await tempDir(), 'bad.jsonl');
    await writeFile(
      file,
      Buffer.concat([Buffer.from(head + '\n{"v": "'), Buffer.from([0xff]), Buffer.from('"}\n')]),
    );
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const batch of readLineBatches(file)) seen.push(...batch.lines);
      })(),
    ).rejects.toThrow(`bad.jsonl:301: byte ${Buffer.byteLength(head + '\n{"v": "')} is not UTF-8`);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });
});
