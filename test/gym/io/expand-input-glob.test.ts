import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandInputGlob } from '../../../src/gym/io/expand-input-glob.js';
import { tempDir } from '../gym-test-helpers.js';

describe('expandInputGlob (Python glob.glob per pattern, §12)', () => {
  const dir = tempDir();
  for (const f of ['r-10.jsonl', 'r-2.jsonl', 'r-a.jsonl', '.r-hidden.jsonl', 'other.txt'])
    writeFileSync(join(dir, f), '');
  mkdirSync(join(dir, 'sub1'));
  mkdirSync(join(dir, 'sub2'));
  writeFileSync(join(dir, 'sub1', 'r.jsonl'), '');
  writeFileSync(join(dir, 'sub2', 'r.jsonl'), '');

  it('sorts each pattern’s matches by code point and skips hidden files', () => {
    expect(expandInputGlob(join(dir, 'r-*.jsonl')).map((m) => m.path)).toEqual(
      ['r-10.jsonl', 'r-2.jsonl', 'r-a.jsonl'].map((f) => join(dir, f)),
    );
    expect(expandInputGlob(join(dir, '.r-*')).map((m) => m.path)).toEqual([join(dir, '.r-hidden.jsonl')]);
  });

  it('supports ?, [...] and [!...], and magic in directory parts', () => {
    expect(expandInputGlob(join(dir, 'r-?.jsonl')).map((m) => m.path)).toEqual([
      join(dir, 'r-2.jsonl'),
      join(dir, 'r-a.jsonl'),
    ]);
    expect(expandInputGlob(join(dir, 'r-[0-9]*.jsonl')).length).toBe(2);
    expect(expandInputGlob(join(dir, 'r-[!0-9]*.jsonl')).map((m) => m.path)).toEqual([
      join(dir, 'r-a.jsonl'),
    ]);
    expect(expandInputGlob(join(dir, 'sub*', 'r.jsonl')).map((m) => m.path)).toEqual([
      join(dir, 'sub1', 'r.jsonl'),
      join(dir, 'sub2', 'r.jsonl'),
    ]);
  });

  it('keeps pattern order, drops repeats (also ./ spellings), trims, and marks literal paths', () => {
    const got = expandInputGlob(
      `${join(dir, 'r-a.jsonl')} ,, ${join(dir, 'r-*.jsonl')},${dir}/./r-2.jsonl, ${join(dir, 'missing.jsonl')}`,
    );
    expect(got.map((m) => [m.path, m.fromGlob])).toEqual([
      [join(dir, 'r-a.jsonl'), false],
      [join(dir, 'r-10.jsonl'), true],
      [join(dir, 'r-2.jsonl'), true],
    ]);
  });
});
