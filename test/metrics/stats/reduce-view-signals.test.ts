import { describe, expect, it } from 'vitest';
import { reduceViewSignals } from '../../../src/metrics/stats/reduce-view-signals.js';

describe('reduceViewSignals', () => {
  const values = [0.5, 1, 0.25];
  const none = [null, null, null];
  it.each([
    { reducer: 'single' as const, expected: 0.5 },
    { reducer: 'all' as const, expected: 0.25 },
    { reducer: 'any' as const, expected: 1 },
    { reducer: 'mean' as const, expected: 1.75 / 3 },
  ])('$reducer → $expected', ({ reducer, expected }) => {
    expect(reduceViewSignals(reducer, values, none)).toBe(expected);
  });

  it('weighted_mean: Σ(w·v)/Σw with null weights read as 1.0', () => {
    // (3·1 + 1·0)/(3 + 1) = 0.75
    expect(reduceViewSignals('weighted_mean', [1, 0], [3, null])).toBe(0.75);
  });

  it('weighted_mean with a zero weight total is unmeasured', () => {
    expect(reduceViewSignals('weighted_mean', [1, 0], [1, -1])).toBeNull();
    expect(reduceViewSignals('weighted_mean', [1], [0])).toBeNull();
  });

  it('mean of 0.1 ×10 uses the compensated sum: exactly 0.1', () => {
    expect(reduceViewSignals('mean', Array(10).fill(0.1), Array(10).fill(null))).toBe(0.1);
  });

  it('any non-finite signal makes the opportunity unmeasured, for every reducer', () => {
    for (const reducer of ['single', 'all', 'any', 'mean', 'weighted_mean'] as const) {
      expect(reduceViewSignals(reducer, [1, NaN], [null, null])).toBeNull();
      expect(reduceViewSignals(reducer, [Infinity, 1], [null, null])).toBeNull();
    }
  });
});
