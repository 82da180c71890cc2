import { describe, expect, it } from 'vitest';
import { clusterTInterval95 } from '../../src/report/stats/cluster-t-interval-95.js';
import { histogramBins } from '../../src/report/stats/histogram-bins.js';
import { studentTQuantile } from '../../src/pycompat/student-t-quantile.js';

// t(0.975, df) from standard tables (R: qt(0.975, df)).
const T975: [number, number][] = [
  [1, 12.7062047361747],
  [2, 4.30265272974946],
  [3, 3.18244630528371],
  [4, 2.77644510519779],
  [9, 2.2621571627982],
  [29, 2.0452296421327],
];

describe('studentTQuantile', () => {
  it.each(T975)('t(0.975, %i) matches the table', (df, expected) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(expected, 7);
  });
  it('is NaN for nonsense arguments', () => {
    expect(studentTQuantile(0.975, 0)).toBeNaN();
    expect(studentTQuantile(1, 3)).toBeNaN();
  });
});

describe('clusterTInterval95', () => {
  it('equals the t-interval over task means when tasks are balanced', () => {
    // task means 0.5, 1, 0 → mean 0.5, s 0.5, se 0.5/√3, df 2
    const ci = clusterTInterval95([
      [1, 0],
      [1, 1],
      [0, 0],
    ]);
    expect(ci).toMatchObject({ n: 6, clusters: 3, method: 'cluster' });
    expect(ci?.mean).toBe(0.5);
    expect(ci?.lo).toBeCloseTo(-0.7420688558751645, 8);
    expect(ci?.hi).toBeCloseTo(1.7420688558751645, 8);
  });
  it('weights values equally and clusters the standard error (CR1) for unbalanced tasks', () => {
    // N 6, mean 1/3; n_g(ȳ_g − ȳ) = 2/3, 1/3, −1 → Σ² 14/9; se = √(3/2 · 14/9)/6; df 2
    const ci = clusterTInterval95([[1], [0, 1], [0, 0, 0]]);
    expect(ci?.mean).toBeCloseTo(1 / 3, 15);
    expect(ci?.lo).toBeCloseTo(-0.7620684346214042, 8);
    expect(ci?.hi).toBeCloseTo(1.4287351012880707, 8);
  });
  it('uses the plain t-interval over repeats of a single task', () => {
    // [1, 0, 1, 1]: mean 0.75, s 0.5, df 3
    const ci = clusterTInterval95([[], [1, 0, 1, 1]]);
    expect(ci).toMatchObject({ n: 4, clusters: 1, method: 'iid', mean: 0.75 });
    expect(ci?.lo).toBeCloseTo(-0.045611576320927494, 8);
    expect(ci?.hi).toBeCloseTo(1.5456115763209275, 8);
  });
  it('ignores non-finite values and needs two finite ones', () => {
    expect(clusterTInterval95([[1, NaN], [Infinity]])).toBeNull();
    expect(clusterTInterval95([[1, NaN], [0]])?.n).toBe(2);
  });
});

describe('histogramBins', () => {
  it('puts small integer ranges in one bin per integer', () => {
    expect(histogramBins([0, 1, 1, 2])).toEqual({
      edges: [-0.5, 0.5, 1.5, 2.5],
      counts: [1, 2, 1],
      discrete: true,
    });
    expect(histogramBins([5, 1, 5])).toEqual({
      edges: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5],
      counts: [1, 0, 0, 0, 2],
      discrete: true,
    });
  });
  it('uses tenths on [0, 1] with the last bin closed', () => {
    const h = histogramBins([0, 0.05, 0.1, 0.55, 0.99, 1]);
    expect(h?.discrete).toBe(false);
    expect(h?.edges).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(h?.counts).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
  });
  it('uses twentieths on [0, 1] beyond 50 values', () => {
    const values = Array.from({ length: 60 }, (_, i) => i / 59);
    const h = histogramBins(values);
    expect(h?.counts).toHaveLength(20);
    expect(h?.counts.reduce((a, b) => a + b, 0)).toBe(60);
    expect(h?.edges[1]).toBe(0.05);
  });
  it('picks nice aligned widths for other ranges and keeps every value', () => {
    // 9 values over [3.2, 47.9]: target 5 bins → raw 8.94 → width 10 from 0 to 50
    const values = [3.2, 7.5, 12, 18.4, 22, 29.9, 33, 41, 47.9];
    const h = histogramBins(values);
    expect(h?.edges).toEqual([0, 10, 20, 30, 40, 50]);
    expect(h?.counts).toEqual([2, 2, 2, 1, 2]);
  });
  it('gives the same bins for a Float64Array as for an array of the same numbers', () => {
    for (const values of [[0, 1, 1, 2, NaN], [0, 0.05, 0.1, 0.55, 0.99, 1], [-3.5, 12, 140, Infinity], []]) {
      expect(histogramBins(Float64Array.from(values))).toEqual(histogramBins(values));
    }
  });
  it('handles one distinct value, non-finite values and no values', () => {
    expect(histogramBins([2.5, 2.5])).toEqual({ edges: [2, 3], counts: [2], discrete: false });
    expect(histogramBins([NaN, Infinity])).toBeNull();
    expect(histogramBins([])).toBeNull();
  });
});
