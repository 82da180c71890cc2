import { jstatDistributions } from '../stats/jstat-distributions.js';

const cache = new Map<string, number>();

/**
 * `P(|T| <= t)` for a Student-t with integer `df` (Abramowitz & Stegun 26.7.3/26.7.4): a finite series
 * in `cos²θ` with `θ = atan(t/√df)`, summed with Neumaier compensation so that it holds to a few ulps.
 */
function twoSidedCdf(t: number, df: number): number {
  const theta = Math.atan(t / Math.sqrt(df));
  const c2 = df / (df + t * t);
  const s = t / Math.sqrt(df + t * t);
  let sum: number;
  let comp = 0;
  const add = (x: number): void => {
    const y = sum + x;
    comp += Math.abs(sum) >= Math.abs(x) ? sum - y + x : x - y + sum;
    sum = y;
  };
  if (df % 2 === 1) {
    if (df === 1) return (2 * theta) / Math.PI;
    // (2/π)(θ + sinθ cosθ (1 + 2/3 cos²θ + (2·4)/(3·5) cos⁴θ + … up to cos^(df-3)θ))
    sum = 1;
    let term = 1;
    for (let k = 1; 2 * k + 1 <= df - 2; k++) {
      term *= ((2 * k) / (2 * k + 1)) * c2;
      add(term);
    }
    const series = sum + comp;
    return (2 / Math.PI) * (theta + s * Math.sqrt(c2) * series);
  }
  // sinθ (1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ + … up to cos^(df-2)θ)
  sum = 1;
  let term = 1;
  for (let k = 1; 2 * k <= df - 2; k++) {
    term *= ((2 * k - 1) / (2 * k)) * c2;
    add(term);
  }
  return s * (sum + comp);
}

/** Φ⁻¹(0.975), correctly rounded. */
const Z975 = 1.959963984540054;

/**
 * Cornish–Fisher expansion of t_{0.975}(df) in powers of 1/df (Abramowitz & Stegun 26.7.5, four
 * terms): the finite series loses ~df·ε to rounding for large df, the expansion is exact to a few
 * ulps for df >= 1000.
 */
function cornishFisher975(n: number): number {
  const x = Z975;
  const x2 = x * x;
  const x3 = x2 * x;
  const x5 = x3 * x2;
  const x7 = x5 * x2;
  const x9 = x7 * x2;
  const g1 = (x3 + x) / 4;
  const g2 = (5 * x5 + 16 * x3 + 3 * x) / 96;
  const g3 = (3 * x7 + 19 * x5 + 17 * x3 - 15 * x) / 384;
  const g4 = (79 * x9 + 776 * x7 + 1482 * x5 - 1920 * x3 - 945 * x) / 92160;
  return x + (g1 + (g2 + (g3 + g4 / n) / n) / n) / n;
}

/**
 * The Student-t quantile `t_p` for an integer `df >= 1` (`scipy.stats.t.ppf(p, df)`), for `p` in (0, 1).
 * df = 1 and df = 2 use their closed forms; p = 0.975 with df >= 1000 the Cornish–Fisher expansion;
 * otherwise jstat's `studentt.inv` gives the start and Newton steps on the exact finite-series CDF
 * refine it (jstat alone is off by up to 3e-8). Agrees with scipy >= 1.16 to ~5e-15 relative for
 * p = 0.975; scipy 1.15 (Gym's golden files) was off from the exact quantile by up to ~4e-11.
 *
 * @example
 * studentTQuantile(0.975, 2); // 4.302652729749464 (scipy: 4.302652729696142)
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !Number.isInteger(df) || df < 1) return NaN;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  const key = `${p}:${df}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let t: number;
  if (df === 1) {
    t = Math.tan(Math.PI * (p - 0.5));
  } else if (df === 2) {
    const a = 2 * p - 1;
    t = a / Math.sqrt((1 - a * a) / 2);
  } else if (p === 0.975 && df >= 1000) {
    t = cornishFisher975(df);
  } else {
    const target = 2 * p - 1;
    t = jstatDistributions.studentt.inv(p, df);
    for (let iter = 0; iter < 60; iter++) {
      const f = twoSidedCdf(t, df) - target;
      const slope = 2 * jstatDistributions.studentt.pdf(t, df);
      const step = f / slope;
      t -= step;
      if (Math.abs(step) <= 1e-16 * Math.abs(t)) break;
    }
  }
  cache.set(key, t);
  return t;
}
