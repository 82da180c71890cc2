import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDescribeStats, type DescribeStats } from '../../../src/gym/compute/compute-describe-stats.js';
import { pandasMean } from '../../../src/gym/stats/pandas-mean.js';
import { pandasMedian } from '../../../src/gym/stats/pandas-median.js';
import { pandasStd } from '../../../src/gym/stats/pandas-std.js';
import { rangeMax, rangeMin } from '../../../src/gym/stats/range-extremes.js';

/** Each statistic by its own function, as `describe_dataframe` defines it (the reference). */
function reference(columns: Float64Array[], start: number, end: number): number[][] {
  const rows = columns.map((v) => {
    const count = v.subarray(start, end).filter((x) => x === x).length;
    if (count === 0) return [NaN, NaN, NaN, NaN, NaN];
    return [
      pandasMean(v, start, end),
      rangeMax(v, start, end),
      rangeMin(v, start, end),
      pandasMedian(v, start, end),
      pandasStd(v, start, end),
    ];
  });
  if (rows.every((r) => r[4] !== r[4])) {
    const complete = columns.map((v) => v.subarray(start, end).every((x) => x === x));
    if (complete.some(Boolean)) rows.forEach((r, c) => complete[c] && (r[4] = 0));
  }
  return rows;
}

function computed(columns: Float64Array[], start: number, end: number): number[][] {
  const m = columns.length;
  const out: DescribeStats = {
    mean: new Float64Array(m),
    max: new Float64Array(m),
    min: new Float64Array(m),
    median: new Float64Array(m),
    std: new Float64Array(m),
  };
  computeDescribeStats(columns, start, end, out);
  return columns.map((_, c) => [out.mean, out.max, out.min, out.median, out.std].map((s) => s[c] as number));
}

/** Bits-exact comparison (Object.is tells -0 from 0 and matches NaN). */
function sameBits(a: number[][], b: number[][]): boolean {
  return a.length === b.length && a.every((r, c) => r.every((x, s) => Object.is(x, b[c]?.[s])));
}

const value = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(0, -0, 1, NaN) },
  { weight: 1, arbitrary: fc.constantFrom(Infinity, -Infinity, 5e-324) },
);

describe('computeDescribeStats', () => {
  it('gives the bits of the separate statistics for short ranges (one sort) and long ones (selection)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 70 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(value, { minLength: 80 * 4, maxLength: 80 * 4 }),
        (m, n, start, values) => {
          const columns = Array.from({ length: m }, (_, c) =>
            Float64Array.from(values.slice(c * 80, c * 80 + start + n)),
          );
          const want = reference(columns, start, start + n);
          const got = computed(columns, start, start + n);
          if (!sameBits(got, want)) expect(got).toEqual(want);
          return true;
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps the first of equal extremes, -0 or 0, in a short range', () => {
    const [[, max, min]] = computed([Float64Array.of(-0, 0, -1, 0, -0)], 0, 5) as [number[]];
    expect(Object.is(max, -0)).toBe(true);
    expect(min).toBe(-1);
    const [[, max2, min2]] = computed([Float64Array.of(0, -0)], 0, 2) as [number[]];
    expect(Object.is(max2, 0)).toBe(true);
    expect(Object.is(min2, 0)).toBe(true);
  });

  it('sets std to 0 where a column is complete when every std is NaN (one row per group)', () => {
    const got = computed([Float64Array.of(4), Float64Array.of(NaN)], 0, 1);
    expect(got[0]).toEqual([4, 4, 4, 4, 0]);
    expect(got[1]).toEqual([NaN, NaN, NaN, NaN, NaN]);
  });
});
