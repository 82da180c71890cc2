import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { numpyQuantileLinear } from './numpy-quantile-linear.js';
import { pairwiseSum } from '../../../src/gym/stats/pairwise-sum.js';
import { pandasMean } from '../../../src/gym/stats/pandas-mean.js';
import { pandasMedian } from '../../../src/gym/stats/pandas-median.js';
import { pandasStd } from '../../../src/gym/stats/pandas-std.js';
import { studentTQuantile } from '../../../src/pycompat/student-t-quantile.js';

interface OracleCase {
  n: number;
  seed: number;
  sum: number;
  mean: number;
  std: number | null;
  median: number;
  p25: number;
  p75: number;
  nan_at: number[];
  mean_nan: number | null;
  std_nan: number | null;
  median_nan: number | null;
}

const oracle = JSON.parse(
  readFileSync(new URL('../../fixtures/gym-aggregate/numpy-oracle.json', import.meta.url), 'utf8'),
) as { cases: OracleCase[]; t975: Record<string, number> };

/** The generator of numpy-oracle.py, double for double. */
function values(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  const scales = [1.0, 10.0, 0.001, 1000.0, 1e-7, 3.0, 1e6];
  for (let i = 0; i < n; i++) {
    const k = (i * 7919 + seed * 104729) % 10007;
    const scale = scales[(i + seed) % 7] as number;
    out[i] = (k / 10007) * scale - ((i + seed) % 3 === 0 ? 0.5 * scale : 0.0);
  }
  return out;
}

describe('gym statistics against numpy (numpy-oracle.json)', () => {
  for (const c of oracle.cases) {
    it(`n=${c.n} seed=${c.seed}: sum, mean, std, median, p25, p75 bit for bit`, () => {
      const x = values(c.n, c.seed);
      expect(pairwiseSum(x)).toBe(c.sum);
      expect(pandasMean(x)).toBe(c.mean);
      if (c.std === null) expect(pandasStd(x)).toBeNaN();
      else expect(pandasStd(x)).toBe(c.std);
      expect(pandasMedian(x)).toBe(c.median);
      const sorted = Float64Array.from(x).sort();
      expect(numpyQuantileLinear(sorted, 0.25)).toBe(c.p25);
      expect(numpyQuantileLinear(sorted, 0.75)).toBe(c.p75);
    });
    it(`n=${c.n} seed=${c.seed}: pandas skipna (NaN filled with 0 in place) mean, std, median`, () => {
      const x = values(c.n, c.seed);
      for (const i of c.nan_at) x[i] = NaN;
      if (c.mean_nan === null) expect(pandasMean(x)).toBeNaN();
      else expect(pandasMean(x)).toBe(c.mean_nan);
      if (c.std_nan === null) expect(pandasStd(x)).toBeNaN();
      else expect(pandasStd(x)).toBe(c.std_nan);
      if (c.median_nan === null) expect(pandasMedian(x)).toBeNaN();
      else expect(pandasMedian(x)).toBe(c.median_nan);
    });
  }

  it('t quantiles agree with scipy (>= 1.16, boost) to 1e-13 relative', () => {
    expect(Object.keys(oracle.t975).length).toBeGreaterThan(10);
    for (const [df, t] of Object.entries(oracle.t975)) {
      expect(Math.abs(studentTQuantile(0.975, Number(df)) - t) / t).toBeLessThan(1e-13);
    }
  });
});
