import { describe, expect, it } from 'vitest';
import { appendAll } from '../../src/util/append-all.js';

describe('appendAll', () => {
  it('appends in order, also more items than push(...items) can take as arguments', () => {
    const items = Array.from({ length: 300_000 }, (_, i) => ({ i }));
    // the spread it replaces fails on this many items
    expect(() => [].push(...(items as never[]))).toThrow(RangeError);
    const target = [{ i: -1 }];
    appendAll(target, items);
    expect(target).toHaveLength(300_001);
    expect([target[0]?.i, target[1]?.i, target[300_000]?.i]).toEqual([-1, 0, 299_999]);
    appendAll(target, new Set([{ i: 7 }]));
    expect(target.at(-1)).toEqual({ i: 7 });
  });
});
