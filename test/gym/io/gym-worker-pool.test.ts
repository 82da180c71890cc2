import { describe, expect, it } from 'vitest';
import { GymWorkerPool } from '../../../src/gym/io/gym-worker-pool.js';
import type { MergeSource } from '../../../src/gym/io/write-merged-rollouts.js';

describe('GymWorkerPool.merge', () => {
  it('answers false (the caller merges) when its worker is gone, instead of failing the run', async () => {
    const pool = new GymWorkerPool(1);
    await pool.close();
    const source: MergeSource = {
      files: ['never-read.jsonl'],
      file: new Int32Array(1),
      line: new Float64Array(1),
      offset: new Float64Array(1),
      length: new Float64Array(1),
    };
    await expect(pool.merge(0, source, new Int32Array(1), '/nonexistent/out.jsonl')).resolves.toBe(false);
  });
});
