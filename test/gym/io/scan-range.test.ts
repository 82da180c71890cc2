import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forEachJsonlLine, type ReadBufferHolder } from '../../../src/gym/io/for-each-jsonl-line.js';
import { InOrderRangeAppender } from '../../../src/gym/io/in-order-range-appender.js';
import { loadRolloutFile } from '../../../src/gym/io/load-rollout-file.js';
import { RangeScanner, type ScanRange, type ScanRangeResult } from '../../../src/gym/io/scan-range.js';
import { createGymKeys } from '../../../src/gym/rows/gym-keys.js';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import type { RolloutTableTransfer } from '../../../src/gym/rows/rollout-table-transfer.js';
import { row, tempDir, writeJsonl } from '../gym-test-helpers.js';

/** Rows whose keys, agents and non-numeric fields change along the file (ranges see different ones). */
function lines(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    row(
      i % 13,
      Math.floor(i / 13),
      {
        reward: i % 3 === 0 ? 1 : 0.5,
        response: { usage: { input_tokens: i, [`tokens_${Math.floor(i / 100)}`]: i * 2 } },
        [`field_${Math.floor(i / 60)}`]: i / 7,
        judge: i % 11 === 0 ? 'n/a' : i % 4,
      },
      ['alpha', 'beta', 'gamma'][Math.floor(i / 150) % 3],
    ),
  );
}

/** Line-aligned ranges of about `piece` bytes. */
function cut(path: string, piece: number): ScanRange[] {
  const buf = readFileSync(path);
  const ranges: ScanRange[] = [];
  for (let start = 0; start < buf.length;) {
    const nl = buf.indexOf(10, Math.min(start + piece, buf.length - 1));
    const end = nl < 0 ? buf.length : nl + 1;
    ranges.push({ file: 0, start, end });
    start = end;
  }
  return ranges;
}

/** A transfer's rows as plain arrays (the same rows compare equal whatever ids the keys got). */
function plain(t: RolloutTableTransfer) {
  return {
    count: t.count,
    line: [...t.line],
    offset: [...t.offset],
    task: [...t.task],
    rollout: [...t.rollout],
    agent: [...t.agent].map((a) => (a < 0 ? null : t.agentNames[a])),
    stats: [...t.statKey].map((k, i) => [t.names[k], t.statVal[i], t.statKind[i]]),
    statStart: [...t.statStart],
    infos: [...t.infoKey].map((k, i) => [t.names[k], t.infoVal[i], t.infoKind[i]]),
    infoStart: [...t.infoStart],
    numeric: t.names.filter((_, k) => t.fieldNumeric[k] === 1).sort(), // id order differs
    nonNumeric: t.nonNumeric.map(([k, v]) => [t.names[k], v]),
  };
}

function tableOf(r: ScanRangeResult): RolloutTableTransfer {
  if (!('table' in r)) throw new Error(r.message);
  return r.table;
}

describe('RangeScanner', () => {
  it('gives each range what a fresh table gives, while keeping its table and buffer', async () => {
    const path = writeJsonl(tempDir(), 'in.jsonl', lines(900));
    const ranges = cut(path, 6000);
    expect(ranges.length).toBeGreaterThan(20);
    const scanner = new RangeScanner();
    const kept: ScanRangeResult[] = [];
    for (const r of ranges) {
      const reused = await scanner.scan(path, r, { cut: true });
      expect(plain(tableOf(reused))).toEqual(
        plain(tableOf(await new RangeScanner().scan(path, r, { cut: true }))),
      );
      kept.push(reused);
    }
    // the copies stay as they were while the table is reused, and append to the sequential table
    const sequential = new RolloutTable(createGymKeys());
    sequential.files.push(path);
    await loadRolloutFile(path, 0, sequential, { cut: true });
    const table = new RolloutTable(createGymKeys());
    table.files.push(path);
    const appender = new InOrderRangeAppender(table, ranges, 0, readFileSync(path).length);
    for (const [id, res] of kept.entries()) appender.put(id, res);
    expect(appender.complete).toBe(true);
    expect(plain(table.toTransfer())).toEqual(plain(sequential.toTransfer()));
  });

  it('does not reuse a table lent out as views until it is released', async () => {
    const path = writeJsonl(tempDir(), 'in.jsonl', lines(600));
    const [a, b, c] = cut(path, 9000) as [ScanRange, ScanRange, ScanRange];
    const scanner = new RangeScanner();
    const first = tableOf(await scanner.scan(path, a, { cut: true }, false));
    const firstRows = plain(first);
    const second = tableOf(await scanner.scan(path, b, { cut: true }, false));
    expect(plain(first)).toEqual(firstRows); // still lent: the second range used a new table
    expect(second.task.buffer).not.toBe(first.task.buffer);
    scanner.release();
    const third = tableOf(await scanner.scan(path, c, { cut: true }, false));
    expect(third.task.buffer).toBe(second.task.buffer); // released: reused
    expect(plain(third)).toEqual(plain(tableOf(await new RangeScanner().scan(path, c, { cut: true }))));
    expect(plain(first)).toEqual(firstRows);
  });

  it('starts clean after a range that failed half way', async () => {
    const text = lines(300);
    text[120] = '{"_ng_task_index": 1, oops}';
    const path = writeJsonl(tempDir(), 'bad.jsonl', text);
    const ranges = cut(path, 1 << 20);
    const scanner = new RangeScanner();
    const bad = await scanner.scan(
      path,
      { file: 0, start: 0, end: readFileSync(path).length },
      { cut: true },
    );
    expect('table' in bad).toBe(false);
    // the same scanner, a range of good rows only: none of the failed range's rows are left
    const good = writeJsonl(tempDir(), 'good.jsonl', lines(50));
    const after = tableOf(await scanner.scan(good, cut(good, 1 << 20)[0] as ScanRange, { cut: true }));
    expect(plain(after)).toEqual(
      plain(tableOf(await new RangeScanner().scan(good, cut(good, 1 << 20)[0] as ScanRange, { cut: true }))),
    );
    expect(ranges.length).toBe(1);
  });
});

describe('forEachJsonlLine with a kept read buffer', () => {
  it('reads into the kept buffer and keeps the larger one a long line needed', async () => {
    const dir = tempDir();
    const short = writeJsonl(dir, 'short.jsonl', ['{"a":1}', '{"b":2}']);
    const long = writeJsonl(dir, 'long.jsonl', ['{"a":1}', JSON.stringify({ s: 'x'.repeat(3000) })]);
    const holder: ReadBufferHolder = { buffer: null };
    const seen: string[] = [];
    const collect = (buf: Buffer, s: number, e: number): void => {
      seen.push(buf.toString('utf8', s, e));
    };
    await forEachJsonlLine(short, collect, { chunkSize: 1024, reuse: holder });
    const first = holder.buffer;
    expect(first?.length).toBe(1024);
    await forEachJsonlLine(short, collect, { chunkSize: 1024, reuse: holder });
    expect(holder.buffer).toBe(first);
    await forEachJsonlLine(long, collect, { chunkSize: 1024, reuse: holder });
    expect(holder.buffer?.length).toBeGreaterThanOrEqual(4096);
    const grown = holder.buffer;
    await forEachJsonlLine(short, collect, { chunkSize: 1024, reuse: holder });
    expect(holder.buffer).toBe(grown);
    expect(seen).toEqual([
      '{"a":1}',
      '{"b":2}',
      '{"a":1}',
      '{"b":2}',
      '{"a":1}',
      JSON.stringify({ s: 'x'.repeat(3000) }),
      '{"a":1}',
      '{"b":2}',
    ]);
  });
});
