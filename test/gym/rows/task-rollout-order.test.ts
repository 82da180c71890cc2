import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taskRolloutOrder } from '../../../src/gym/rows/task-rollout-order.js';

/** The order by an independent stable comparator sort. */
function byComparator(task: number[], rollout: number[]): number[] {
  return task
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (task[a] as number) - (task[b] as number) || (rollout[a] as number) - (rollout[b] as number) || a - b,
    );
}

const pairs = (lo: number, hi: number) =>
  fc.array(fc.tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: lo, max: hi })), {
    maxLength: 300,
    size: 'max',
  });

/** Few distinct values (so keys repeat) whose span does not pack. */
const huge = fc.constantFrom(-(2 ** 40), -1, 0, 3, 2 ** 40);
const hugePairs = fc.array(fc.tuple(huge, huge), { maxLength: 300, size: 'max' });

describe('taskRolloutOrder', () => {
  it('orders by task, then rollout, then row, for small and negative indices with repeats', () => {
    fc.assert(
      fc.property(pairs(-5, 40), (rows) => {
        const task = rows.map((r) => r[0]);
        const rollout = rows.map((r) => r[1]);
        const got = taskRolloutOrder(Float64Array.from(task), Float64Array.from(rollout), rows.length);
        expect([...got]).toEqual(byComparator(task, rollout));
      }),
    );
  });

  it('gives the same order when the keys do not pack into a double (comparator sort)', () => {
    fc.assert(
      fc.property(hugePairs, (rows) => {
        const task = rows.map((r) => r[0]);
        const rollout = rows.map((r) => r[1]);
        const got = taskRolloutOrder(Float64Array.from(task), Float64Array.from(rollout), rows.length);
        expect([...got]).toEqual(byComparator(task, rollout));
      }),
    );
  });

  it('reads only the first `count` entries of longer arrays', () => {
    const task = Float64Array.of(3, 1, 1, 0, 0);
    const rollout = Float64Array.of(0, 2, 1, 0, 0);
    expect([...taskRolloutOrder(task, rollout, 3)]).toEqual([2, 1, 0]);
    expect(taskRolloutOrder(task, rollout, 0).length).toBe(0);
  });
});
