import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InOrderRangeAppender, RESERVE_MAX_BYTES } from '../../../src/gym/io/in-order-range-appender.js';
import { loadRolloutFile } from '../../../src/gym/io/load-rollout-file.js';
import { RangeScanner, type ScanRange, type ScanRangeResult } from '../../../src/gym/io/scan-range.js';
import { createGymKeys } from '../../../src/gym/rows/gym-keys.js';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import { row, tempDir, writeJsonl } from '../gym-test-helpers.js';

function lines(n: number, agents: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      row(
        i % 17,
        Math.floor(i / 17),
        {
          reward: i % 4 === 0 ? 1 : 0,
          response: { usage: { input_tokens: i, output_tokens: 2 * i } },
          [`field_${i % 5}`]: i / 7,
          judge: i % 9 === 0 ? 'n/a' : i % 3,
        },
        agents[i % agents.length],
      ),
    );
    if (i % 50 === 49) out.push(''); // blank lines count as lines
  }
  return out;
}

/** Line-aligned ranges of about `piece` bytes over `paths`. */
function cut(paths: string[], texts: string[], piece: number): ScanRange[] {
  const ranges: ScanRange[] = [];
  texts.forEach((text, file) => {
    const buf = Buffer.from(text);
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(10, Math.min(start + piece, buf.length - 1));
      const end = nl < 0 ? buf.length : nl + 1;
      ranges.push({ file, start, end });
      start = end;
    }
    expect(statSync(paths[file] as string).size).toBe(buf.length);
  });
  return ranges;
}

function columns(t: RolloutTable) {
  const n = t.count;
  return {
    count: n,
    files: t.files,
    agentNames: t.agentNames,
    names: t.keys.names,
    file: [...t.file.subarray(0, n)],
    line: [...t.line.subarray(0, n)],
    offset: [...t.offset.subarray(0, n)],
    task: [...t.task.subarray(0, n)],
    rollout: [...t.rollout.subarray(0, n)],
    agent: [...t.agent.subarray(0, n)],
    statStart: [...t.statStart.subarray(0, n)],
    infoStart: [...t.infoStart.subarray(0, n)],
    statKey: [...t.statKey.subarray(0, t.statCount)],
    statVal: [...t.statVal.subarray(0, t.statCount)],
    infoKey: [...t.infoKey.subarray(0, t.infoCount)],
    infoVal: [...t.infoVal.subarray(0, t.infoCount)],
    nonNumeric: [...t.nonNumeric],
  };
}

/** A fixed shuffle of 0..n-1 (every order the threads could deliver in is possible). */
function shuffled(n: number, seed: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j] as number, a[i] as number];
  }
  return a;
}

describe('InOrderRangeAppender', () => {
  it('builds the table a sequential read builds, whatever order the ranges arrive in', async () => {
    const dir = tempDir();
    const texts = [lines(700, ['alpha', 'beta']), lines(300, ['gamma', 'alpha'])].map(
      (l) => l.join('\n') + '\n',
    );
    const paths = texts.map((_, i) => writeJsonl(dir, `s${i}.jsonl`, texts[i]!.slice(0, -1).split('\n')));
    const ranges = cut(paths, texts, 4096);
    expect(ranges.length).toBeGreaterThan(20);
    const total = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);

    const sequential = new RolloutTable(createGymKeys());
    sequential.files.push(...paths);
    for (const [i, p] of paths.entries()) await loadRolloutFile(p, i, sequential, { cut: true });

    const results: ScanRangeResult[] = [];
    for (const r of ranges)
      results.push(await new RangeScanner().scan(paths[r.file] as string, r, { cut: true }));
    for (const seed of [1, 7, 42]) {
      const table = new RolloutTable(createGymKeys());
      table.files.push(...paths);
      const appender = new InOrderRangeAppender(table, ranges, 0, total);
      const order = shuffled(ranges.length, seed);
      for (const [k, id] of order.entries()) {
        appender.put(id, results[id] as ScanRangeResult);
        // exactly the ranges whose predecessors have all arrived are in
        let prefix = 0;
        const arrived = new Set(order.slice(0, k + 1));
        while (arrived.has(prefix)) prefix++;
        expect(appender.appended).toBe(prefix);
      }
      expect(appender.complete).toBe(true);
      expect(appender.error(paths)).toBeNull();
      expect(columns(table)).toEqual(columns(sequential));
    }
  });

  it('stops at the first failed range and names its line in the whole file', async () => {
    const dir = tempDir();
    const text = lines(400, ['alpha']);
    text[250] = '{"_ng_task_index": 1, oops}';
    text[380] = 'not json';
    const path = writeJsonl(dir, 'bad.jsonl', text);
    const size = statSync(path).size;
    const ranges = cut([path], [text.join('\n') + '\n'], 2048);
    const results: ScanRangeResult[] = [];
    for (const r of ranges) results.push(await new RangeScanner().scan(path, r, { cut: true }));
    const failedAt = results.findIndex((r) => !('table' in r));
    expect(failedAt).toBeGreaterThan(0);

    const table = new RolloutTable(createGymKeys());
    table.files.push(path);
    const appender = new InOrderRangeAppender(table, ranges, 0, size);
    // the failed range and a later one arrive first: nothing can be said yet
    appender.put(failedAt, results[failedAt] as ScanRangeResult);
    appender.put(ranges.length - 1, results[ranges.length - 1] as ScanRangeResult);
    expect(appender.error([path])).toBeNull();
    for (let id = 0; id < failedAt; id++) appender.put(id, results[id] as ScanRangeResult);
    expect(appender.appended).toBe(failedAt);
    expect(appender.complete).toBe(false);
    expect(appender.error([path])?.message).toBe(
      `Malformed JSON in '${path}' at line 251, column 23: expected a string key, found 'o'`,
    );
  });

  it('reserves room for the whole input from its first range', async () => {
    const dir = tempDir();
    const text = lines(2000, ['alpha']);
    const path = writeJsonl(dir, 'in.jsonl', text);
    const size = statSync(path).size;
    const ranges = cut([path], [text.join('\n') + '\n'], 16384);
    const table = new RolloutTable(createGymKeys());
    table.files.push(path);
    const appender = new InOrderRangeAppender(table, ranges, 0, size);
    appender.put(0, await new RangeScanner().scan(path, ranges[0] as ScanRange, { cut: true }));
    // an estimate from 16 KiB of 2000 similar rows: at least all of them, at most 20 % more
    expect(table.task.length).toBeGreaterThanOrEqual(2000);
    expect(table.task.length).toBeLessThan(2400);
    const task = table.task;
    for (let id = 1; id < ranges.length; id++)
      appender.put(id, await new RangeScanner().scan(path, ranges[id] as ScanRange, { cut: true }));
    expect(table.count).toBe(2000);
    expect(table.task).toBe(task); // never grown again
  });

  it('reserves no more than RESERVE_MAX_BYTES when the first range is unlike the rest', async () => {
    const dir = tempDir();
    const text = lines(200, ['alpha']);
    const path = writeJsonl(dir, 'in.jsonl', text);
    const ranges = cut([path], [text.join('\n') + '\n'], 1 << 20);
    const table = new RolloutTable(createGymKeys());
    table.files.push(path);
    // as if 100 GB of much longer rows followed these 200 short ones
    const appender = new InOrderRangeAppender(table, ranges, 0, 100e9);
    appender.put(0, await new RangeScanner().scan(path, ranges[0] as ScanRange, { cut: true }));
    const reserved = RolloutTable.bytesFor(table.task.length, table.statVal.length, table.infoVal.length);
    expect(reserved).toBeGreaterThan(RESERVE_MAX_BYTES / 2);
    expect(reserved).toBeLessThanOrEqual(RESERVE_MAX_BYTES + 1024);
    expect(table.count).toBe(200);
  });
});
