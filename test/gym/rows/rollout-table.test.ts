import { describe, expect, it } from 'vitest';
import { loadRolloutFile } from '../../../src/gym/io/load-rollout-file.js';
import { createGymKeys } from '../../../src/gym/rows/gym-keys.js';
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
  it('clearRows leaves a table that reads the same rows again as a fresh one does', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'in.jsonl', [
      row(0, 0, { reward: 'pass', score: 2, big: 1 }).replace('"big":1', '"big":12345678901234567890'),
      row(0, 1, { reward: 1, score: 'n/a' }),
    ]);
    const fresh = new RolloutTable(createGymKeys());
    await loadRolloutFile(path, 0, fresh, { cut: true });
    const reused = new RolloutTable(createGymKeys());
    await loadRolloutFile(path, 0, reused, { cut: true });
    reused.clearRows();
    expect(reused.count).toBe(0);
    expect(reused.nonNumeric.size).toBe(0);
    expect(reused.infoRaw.size + reused.infoBig.size).toBe(0);
    await loadRolloutFile(path, 0, reused, { cut: true });
    expect(snapshot(reused)).toEqual(snapshot(fresh));
    // the non-numeric reward and the big int were kept, and cleared
    expect([fresh.infoRaw.size, fresh.infoBig.size]).toEqual([1, 1]);
  });

  it('reserve makes room without changing the rows', async () => {
    const dir = tempDir();
    const path = writeJsonl(dir, 'in.jsonl', [row(0, 0, { reward: 1, a: 2 }), row(1, 0, { reward: 0 })]);
    const t = new RolloutTable(createGymKeys());
    await loadRolloutFile(path, 0, t, { cut: true });
    const before = snapshot(t);
    t.reserve(5000, 7000, 9000);
    expect(t.task.length).toBe(5000);
    expect(t.statVal.length).toBe(8192); // 7000 is within its capacity already: unchanged
    expect(t.infoVal.length).toBe(9000);
    expect(snapshot(t)).toEqual(before);
  });
});
