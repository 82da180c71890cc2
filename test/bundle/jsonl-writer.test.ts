import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlWriter } from '../../src/bundle/jsonl-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonl-writer-'));

describe('JsonlWriter', () => {
  it('writes every line in call order across buffer flushes, awaited or not, with any UTF-8', async () => {
    const file = join(dir, 'many.jsonl');
    // 64-byte buffers: most lines cross a flush, some are longer than a buffer
    const writer = await JsonlWriter.create(file, { bufferBytes: 64 });
    const lines = Array.from({ length: 500 }, (_, i) => {
      let line = `{"i": ${i}, "s": "`;
      for (let k = 0; k < i % 37; k++) line += ['a', 'ü', '€', '𝄞'][k % 4];
      return line + '"}';
    });
    for (let i = 0; i < lines.length; i++) {
      const written = writer.writeLine(lines[i]!);
      if (i % 3 === 0) await written; // the others are not awaited
    }
    await writer.close();
    expect(readFileSync(file, 'utf8')).toBe(lines.map((l) => l + '\n').join(''));
  });

  it('writes an empty file, closes twice, and refuses lines after close', async () => {
    const file = join(dir, 'empty.jsonl');
    const writer = await JsonlWriter.create(file);
    await writer.close();
    await writer.close();
    expect(readFileSync(file, 'utf8')).toBe('');
    await expect(writer.writeLine('x')).rejects.toThrow(/closed/);
  });

  it('flush makes what was written so far readable in the file', async () => {
    const file = join(dir, 'flush.jsonl');
    const writer = await JsonlWriter.create(file);
    await writer.writeLine('one');
    expect(readFileSync(file, 'utf8')).toBe('');
    await writer.flush();
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    await writer.writeLine('two');
    await writer.close();
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  });
});
