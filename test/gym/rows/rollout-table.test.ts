import { describe, expect, it } from 'vitest';
import { loadRolloutFile } from '../../../src/gym/io/load-rollout-file.js';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import { row, tempDir, writeJsonl } from '../gym-test-helpers.js';

const snapshot = (t: RolloutTable) => ({
  count: t.count,
  task: [...t.task.subarray(0, t.count)],
  statKey: [...t.statKey.subarray(0, t.statCount)],
  statVal: [...t.statVal.subarray(0, t.statCount)],
  infoKey: [...t.infoKey.subarray(0, t.infoCount)],
  infoVal: [...t.infoVal.subarray(0, t.infoCount)],
  infoBig: [...t.infoBig],
  infoRaw: [...t.infoRaw],
  fieldNumeric: [...t.fieldNumeric],
  nonNumeric: [...t.nonNumeric],
});

describe('RolloutTable', () => {
  it('reserve makes room without changing the rows', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'in.jsonl', [row(0, 0, { reward: 1, a: 2 }), row(1, 0, { reward: 0 })]);
    const t = new RolloutTable();
    await loadRolloutFile(path, 0, t, { cut: true });
    const before = snapshot(t);
    t.reserve(5000, 7000, 9000);
    expect(t.task.length).toBe(5000);
    expect(t.statVal.length).toBe(8192); // 7000 is within its capacity already: unchanged
    expect(t.infoVal.length).toBe(9000);
    expect(snapshot(t)).toEqual(before);
  });

  it('gives each row only its own rollout_infos items (a key of the row before is not carried over)', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'in.jsonl', [
      row(0, 0, { reward: 1, a: 2, response: { usage: { input_tokens: 3 } } }),
      row(0, 1, { b: 4 }),
      row(0, 2, { reward: 0, response: { usage: { a: 5 } } }),
    ]);
    const t = new RolloutTable();
    await loadRolloutFile(path, 0, t, { cut: true });
    const items = (r: number) => {
      const s = t.infoStart[r] as number;
      return Array.from({ length: t.infoLen[r] as number }, (_, i) => [
        t.keys.names[t.infoKey[s + i] as number],
        t.infoVal[s + i],
      ]);
    };
    expect(items(0)).toEqual([
      ['reward', 1],
      ['input_tokens', 3],
      ['a', 2],
    ]);
    expect(items(1)).toEqual([['b', 4]]);
    expect(items(2)).toEqual([
      ['reward', 0],
      ['a', 5],
    ]);
  });

  // 10 s: the quadratic lookups this replaced took ~30 s for such a row; linear takes well under 1 s
  it('reads a hostile row of 100,000 numeric fields (and 1,000 usage fields) in linear time', async () => {
    const fields: Record<string, unknown> = { reward: 1, response: { usage: {} as Record<string, number> } };
    for (let i = 0; i < 100_000; i++) fields[`f${i}`] = i;
    for (let i = 0; i < 1_000; i++)
      (fields['response'] as { usage: Record<string, number> }).usage[`f${i}`] = -i;
    const dir = tempDir();
    const path = writeJsonl(dir, 'wide.jsonl', [row(0, 0, fields)]);
    const t = new RolloutTable();
    await loadRolloutFile(path, 0, t, { cut: true });
    expect(t.infoLen[0]).toBe(1 + 100_000);
    expect(t.statLen[0]).toBe(1 + 100_000);
    // rollout_infos: reward, the usage items, then the other top-level ones; top-level values win
    const info = t.infoStart[0] as number;
    expect([t.keys.names[t.infoKey[info + 2] as number], t.infoVal[info + 2]]).toEqual(['f1', 1]);
    // statistics: top-level order, usage values win
    const stat = t.statStart[0] as number;
    expect([t.keys.names[t.statKey[stat + 2] as number], t.statVal[stat + 2]]).toEqual(['f1', -1]);
  }, 60_000);
});
