import { describe, expect, it } from 'vitest';
import { KeyPositions } from '../../../src/gym/rows/key-positions.js';

describe('KeyPositions', () => {
  it('keeps positions until clear(), for key ids far past its initial room', () => {
    const at = new KeyPositions();
    expect(at.get(3)).toBe(-1);
    at.set(3, 0);
    at.set(100_000, 1);
    at.set(3, 2);
    expect([at.get(3), at.get(100_000), at.get(99_999), at.get(-1 >>> 1)]).toEqual([2, 1, -1, -1]);
    at.clear();
    expect([at.get(3), at.get(100_000)]).toEqual([-1, -1]);
    at.set(100_000, 5);
    expect([at.get(3), at.get(100_000)]).toEqual([-1, 5]);
  });
});
