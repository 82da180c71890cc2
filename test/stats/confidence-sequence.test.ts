import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/mulberry32.js';
import { confidenceSequence } from '../../src/stats/confidence-sequence.js';

/** Runs in which the sequence missed `mean` at some n ≤ `length` (checked at every n). */
function missedRuns(draw: () => number, mean: number, runs: number, length: number): number {
  let missed = 0;
  for (let r = 0; r < runs; r++) {
    const values: number[] = [];
    for (let n = 1; n <= length; n++) {
      values.push(draw());
      const cs = confidenceSequence(values)!;
      if (mean < cs.lower || mean > cs.upper) {
        missed += 1;
        break;
      }
    }
  }
  return missed;
}

describe('confidenceSequence (empirical-Bernstein, Waudby-Smith & Ramdas 2023)', () => {
  it('covers the mean at every n at once in at least 95% of simulated runs (fixed seed)', () => {
    const random = mulberry32(20230101);
    // Bernoulli(0.3) and a skewed continuous law on [0, 1] (U², mean 1/3); 200 runs of 300 each
    const bernoulli = missedRuns(() => (random() < 0.3 ? 1 : 0), 0.3, 200, 300);
    const skewed = missedRuns(() => random() ** 2, 1 / 3, 200, 300);
    expect(bernoulli / 200).toBeLessThanOrEqual(0.05);
    expect(skewed / 200).toBeLessThanOrEqual(0.05);
  });

  it('narrows as observations come in, each interval inside the one before', () => {
    const random = mulberry32(7);
    const values: number[] = [];
    let previous = { lower: 0, upper: 1 };
    for (let n = 1; n <= 4000; n++) {
      values.push(random() < 0.5 ? 1 : 0);
      if (n % 250 !== 0) continue;
      const cs = confidenceSequence(values)!;
      expect(cs.lower).toBeGreaterThanOrEqual(previous.lower);
      expect(cs.upper).toBeLessThanOrEqual(previous.upper);
      previous = cs;
    }
    expect(previous.upper - previous.lower).toBeLessThan(0.1);
    expect(previous.lower).toBeLessThan(0.5);
    expect(previous.upper).toBeGreaterThan(0.5);
  });

  it('is wider than the fixed-n 95% interval at the same n (the price of looking at every n)', () => {
    const values = Array.from({ length: 1000 }, (_, i) => (i % 10 < 3 ? 1 : 0)); // mean 0.3
    const cs = confidenceSequence(values)!;
    // Wald interval at n = 1000: 0.3 ± 1.96·√(0.21/1000) = ±0.0284
    expect(cs.upper - cs.lower).toBeGreaterThan(2 * 0.0284);
    expect(cs.lower).toBeLessThan(0.3);
    expect(cs.upper).toBeGreaterThan(0.3);
  });

  it('rescales known bounds and refuses values outside them', () => {
    const unit = confidenceSequence([0.2, 0.4, 0.9, 0.5])!;
    const scaled = confidenceSequence([2, 4, 9, 5], { lower: 0, upper: 10 })!;
    expect(scaled.lower).toBeCloseTo(unit.lower * 10, 12);
    expect(scaled.upper).toBeCloseTo(unit.upper * 10, 12);
    expect(confidenceSequence([])).toBeNull();
    expect(() => confidenceSequence([0.5, 1.5])).toThrow(
      /value 1.5 at index 1 lies outside the bounds \[0, 1\]/,
    );
  });
});
