import { describe, expect, it } from 'vitest';
import { claimRange, markFailed, newRangeClaims } from '../../../src/gym/io/range-claims.js';

describe('range claims', () => {
  it('hands out every range once, in order, then -1', () => {
    const claims = newRangeClaims();
    expect([0, 1, 2, 3].map(() => claimRange(claims, 3))).toEqual([0, 1, 2, -1]);
    expect(claims.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('stops handing out ranges once a thread has failed', () => {
    const claims = newRangeClaims();
    expect(claimRange(claims, 10)).toBe(0);
    markFailed(claims);
    expect(claimRange(claims, 10)).toBe(-1);
  });
});
