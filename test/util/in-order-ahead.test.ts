import { describe, expect, it } from 'vitest';
import { inOrderAhead } from '../../src/util/in-order-ahead.js';

/** A call per item that settles when the test says so; counts the calls under way. */
function controlled(items: number) {
  const settle: ((fail: boolean) => void)[] = [];
  let running = 0;
  let most = 0;
  const fn = (i: number): Promise<number> =>
    new Promise<number>((resolve, reject) => {
      running += 1;
      most = Math.max(most, running);
      settle[i] = (fail) => {
        running -= 1;
        if (fail) reject(new Error(`item ${i} failed`));
        else resolve(i * 10);
      };
    });
  return { fn, settle, most: () => most, items: Array.from({ length: items }, (_, i) => i) };
}

describe('inOrderAhead', () => {
  it('yields results in the items’ order however the calls settle, with at most `ahead` under way', async () => {
    const c = controlled(20);
    const got: number[] = [];
    const consume = (async () => {
      for await (const r of inOrderAhead(c.items, 4, c.fn)) got.push(r);
    })();
    // settle in reverse order within each window of started calls
    for (let round = 0; round < 40 && got.length < 20; round += 1) {
      await new Promise((r) => setTimeout(r, 0));
      for (let i = c.settle.length - 1; i >= 0; i -= 1) {
        const s = c.settle[i];
        if (s !== undefined) {
          c.settle[i] = undefined as unknown as (fail: boolean) => void;
          s(false);
        }
      }
    }
    await consume;
    expect(got).toEqual(c.items.map((i) => i * 10));
    expect(c.most()).toBeLessThanOrEqual(4);
  });

  it('raises a failure at its item’s turn, after the results before it, and starts nothing past the window', async () => {
    const calls: number[] = [];
    const fn = async (i: number): Promise<number> => {
      calls.push(i);
      if (i === 3) throw new Error('item 3 failed');
      await new Promise((r) => setTimeout(r, 5));
      return i;
    };
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const r of inOrderAhead([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2, fn)) got.push(r);
      })(),
    ).rejects.toThrow('item 3 failed');
    expect(got).toEqual([0, 1, 2]);
    expect(Math.max(...calls)).toBeLessThanOrEqual(5);
  });

  it('starts no call before the first result is asked for, and none past `ahead` while it waits', async () => {
    let started = 0;
    const gen = inOrderAhead([1, 2, 3, 4, 5, 6], 3, async (i) => {
      started += 1;
      return i;
    });
    expect(started).toBe(0);
    expect((await gen.next()).value).toBe(1);
    expect(started).toBeLessThanOrEqual(4);
    await gen.return(undefined);
  });
});
