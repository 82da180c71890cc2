import { describe, expect, it } from 'vitest';
import { buildGymFrame } from '../../../src/gym/compute/build-gym-frame.js';
import { describeKeys } from '../../../src/gym/compute/describe-keys.js';
import { GymGroupLevels } from '../../../src/gym/compute/gym-group-levels.js';
import { loadRolloutFile } from '../../../src/gym/io/load-rollout-file.js';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import { row, tempDir, writeJsonl } from '../gym-test-helpers.js';

describe('GymGroupLevels.canWrite', () => {
  it("depends on the table's items as they are when asked (a later array-index key changes it)", async () => {
    const dir = tempDir();
    const t = new RolloutTable();
    await loadRolloutFile(writeJsonl(dir, 'a.jsonl', [row(0, 0, { reward: 1, score: 2 })]), 0, t, {
      cut: true,
    });
    const levels = (): GymGroupLevels => {
      const rows = Int32Array.from({ length: t.count }, (_, i) => i);
      const frame = buildGymFrame(t, rows);
      return new GymGroupLevels(t, rows, frame, describeKeys(frame.names), false);
    };
    // the same answer for every agent's groups of one table (the writer asks once per table)
    expect(levels().canWrite()).toBe(true);
    expect(levels().canWrite()).toBe(true);
    // a row whose rollout_infos has an array-index key ("7" goes first in a JavaScript object):
    // the streamed writer would put it elsewhere, so the answer changes with the new items
    await loadRolloutFile(writeJsonl(dir, 'b.jsonl', [row(0, 1, { reward: 0, '7': 3 })]), 0, t, {
      cut: true,
    });
    expect(levels().canWrite()).toBe(false);
  });
});
