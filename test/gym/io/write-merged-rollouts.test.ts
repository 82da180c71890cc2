import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeMergedRollouts, type MergeSource } from '../../../src/gym/io/write-merged-rollouts.js';
import { tempDir } from '../gym-test-helpers.js';

/** Writes `lines` to files and describes their rows as a merge source. */
function source(dir: string, files: string[][]): { src: MergeSource; texts: string[] } {
  const src = {
    files: [] as string[],
    file: [] as number[],
    line: [] as number[],
    offset: [] as number[],
    length: [] as number[],
  };
  const texts: string[] = [];
  files.forEach((lines, f) => {
    const path = join(dir, `in-${f}.jsonl`);
    writeFileSync(path, lines.join('\n') + '\n');
    src.files.push(path);
    let at = 0;
    lines.forEach((l, i) => {
      // a row is its line without trailing whitespace (e.g. the \r of CRLF), which is not merged
      const row = l.replace(/[ \t\r]+$/, '');
      src.file.push(f);
      src.line.push(i + 1);
      src.offset.push(at);
      src.length.push(Buffer.byteLength(row));
      texts.push(row);
      at += Buffer.byteLength(l) + 1;
    });
  });
  return {
    src: {
      files: src.files,
      file: Int32Array.from(src.file),
      line: Int32Array.from(src.line),
      offset: Float64Array.from(src.offset),
      length: Int32Array.from(src.length),
    } as unknown as MergeSource,
    texts,
  };
}

const rowText = (i: number, spaced: boolean): string =>
  (spaced
    ? `{ "id": ${i}, "text": "a b ${'x'.repeat(i % 50)}" }`
    : `{"id":${i},"text":"row ${'y'.repeat(i % 70)}"}`) + (i % 7 === 3 ? '\r' : i % 11 === 5 ? ' \t' : '');

describe('writeMergedRollouts', () => {
  it('writes the rows in the given order with their original bytes, whether read by regions or row by row', () => {
    const dir = tempDir();
    fc.assert(
      fc.property(
        // size 'max': lengths up to the maximum, so that windows of 64+ rows (regions) occur
        fc.array(fc.boolean(), { minLength: 1, maxLength: 300, size: 'max' }),
        fc.array(fc.boolean(), { maxLength: 40, size: 'max' }),
        fc.integer({ min: 1, max: 400 }),
        fc.nat(),
        (a, b, window, seed) => {
          const { src, texts } = source(dir, [
            a.map((s, i) => rowText(i, s)),
            b.map((s, i) => rowText(1000 + i, s)),
          ]);
          // rows shuffled within windows (completion order), the second file's rows mixed in
          const order = Array.from(texts, (_, i) => i);
          let x = seed;
          for (let w = 0; w < order.length; w += window) {
            for (let i = Math.min(order.length, w + window) - 1; i > w; i--) {
              x = (x * 1103515245 + 12345) >>> 0;
              const j = w + (x % (i - w + 1));
              [order[i], order[j]] = [order[j] as number, order[i] as number];
            }
          }
          const out = join(dir, 'merged.jsonl');
          writeMergedRollouts(src, Int32Array.from(order), out);
          expect(readFileSync(out, 'utf8')).toBe(order.map((i) => `${texts[i]}\n`).join(''));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a shard that shrank while merged is an error naming the first row in the order it lacks', () => {
    const dir = tempDir();
    const lines = Array.from({ length: 200 }, (_, i) => rowText(i, i % 3 === 0));
    const { src } = source(dir, [lines]);
    const order = Int32Array.from({ length: 200 }, (_, i) => 199 - i);
    truncateSync(src.files[0] as string, (src.offset[150] as number) + 5);
    expect(() => writeMergedRollouts(src, order, join(dir, 'merged.jsonl'))).toThrow(
      `'${src.files[0]}' changed while it was being merged (line 200)`,
    );
    const few = Int32Array.from([3, 1, 2, 150, 0]);
    expect(() => writeMergedRollouts(src, few, join(dir, 'merged.jsonl'))).toThrow(
      `'${src.files[0]}' changed while it was being merged (line 151)`,
    );
  });
});
