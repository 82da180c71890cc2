import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpillFile } from '../../src/util/spill-file.js';

describe('SpillFile', () => {
  it('reads back every record by offset, written or still waiting, across reads of many sizes', () => {
    const file = new SpillFile();
    const records: [number, Buffer][] = [];
    // records from 1 byte to 300 kB: past the flush size and the read size several times
    for (let i = 0; i < 400; i++) {
      const length = i % 50 === 49 ? 300_000 + i : 1 + ((i * 7919) % 5000);
      const record = Buffer.alloc(length, i % 251);
      if (length >= 4) record.writeUInt32LE(i, 0);
      records.push([file.append(record), record]);
    }
    // in order, then backwards, then one still waiting after more appends
    for (const [at, record] of records) expect(file.read(at, record.length).equals(record)).toBe(true);
    for (const [at, record] of [...records].reverse())
      expect(file.read(at, record.length).equals(record)).toBe(true);
    const last = Buffer.from('the last record');
    const at = file.append(last);
    expect(file.read(at, last.length).toString()).toBe('the last record');
    file.close();
    const again = file.append(Buffer.from('after close'));
    expect(again).toBe(0);
    expect(file.read(again, 11).toString()).toBe('after close');
    file.close();
  });

  it('says which temporary directory failed when it cannot make its file', () => {
    const before = process.env['TMPDIR'];
    process.env['TMPDIR'] = join(tmpdir(), 'evalstream-no-such-dir', 'below');
    try {
      const file = new SpillFile();
      file.append(Buffer.alloc(10));
      expect(() => file.read(0, 10)).toThrow(
        /cannot create the spill file in the temporary directory .*evalstream-no-such-dir.*set TMPDIR/,
      );
    } finally {
      if (before === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = before;
    }
  });
});
