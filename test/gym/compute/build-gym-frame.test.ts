import { describe, expect, it } from 'vitest';
import { buildGymFrame, defaultFrameMaxValues } from '../../../src/gym/compute/build-gym-frame.js';
import { GymInputError } from '../../../src/gym/gym-input-error.js';
import { loadRolloutFile } from '../../../src/gym/io/load-rollout-file.js';
import { RolloutTable } from '../../../src/gym/rows/rollout-table.js';
import { row, tempDir, writeJsonl } from '../gym-test-helpers.js';

async function table(lines: string[]): Promise<RolloutTable> {
  const t = new RolloutTable();
  await loadRolloutFile(writeJsonl(tempDir(), 'in.jsonl', lines), 0, t, { cut: true });
  return t;
}

describe('buildGymFrame', () => {
  it('has one column per numeric field in first-seen order, NaN where a row lacks it', async () => {
    const t = await table([row(0, 0, { reward: 1, a: 2 }), row(0, 1, { b: 3.5, reward: 0 })]);
    const frame = buildGymFrame(t, Int32Array.of(0, 1));
    expect(frame.names).toEqual(['reward', 'a', 'b']);
    expect(frame.columns.map((c) => [...c])).toEqual([
      [1, 0],
      [2, NaN],
      [NaN, 3.5],
    ]);
    expect(frame.intColumn).toEqual([false, false, false]);
  });

  it('refuses a frame larger than its limit with an error saying why, before allocating it', async () => {
    const wide = Array.from({ length: 3 }, (_, r) =>
      row(0, r, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`r${r}_f${i}`, i]))),
    );
    const t = await table(wide);
    expect(buildGymFrame(t, Int32Array.of(0, 1, 2), 360).names).toHaveLength(120);
    let error: unknown;
    try {
      buildGymFrame(t, Int32Array.of(0, 1, 2), 359);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GymInputError);
    expect((error as GymInputError).code).toBe('too_wide');
    expect((error as GymInputError).message).toBe(
      'the rows have 120 distinct numeric fields: their statistics frame (3 rows × 120 fields, 0.0 GB) ' +
        'is larger than this machine can hold (359 values); Gym would build a pandas DataFrame of the same size',
    );
    expect(defaultFrameMaxValues()).toBeGreaterThan(1e8); // half of any machine that runs the suite
  });
});
