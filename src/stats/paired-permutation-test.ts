import { seededRandom } from './seeded-random.js';

/** Options of {@link pairedPermutationTest}. */
export interface PairedPermutationOptions {
  /** Seed of the random sign flips (ignored when the test is exact). Default 0. */
  seed?: number;
  /** Random sign-flip resamples when 2^n exceeds it; at or below it every assignment is enumerated. Default 10,000. */
  resamples?: number;
}

/** The result of {@link pairedPermutationTest}. */
export interface PairedPermutationResult {
  pValue: number;
  /** Whether every sign assignment was enumerated (else `resamples` random ones were drawn). */
  exact: boolean;
  resamples: number;
  n: number;
}

/**
 * Two-sided paired permutation (sign-flip) test of "the mean difference is 0": under no difference each
 * paired difference is as likely to have either sign. The statistic is `|Σ d|`; the p-value is the
 * share of sign assignments whose statistic is at least the observed one — all `2^n` of them when that
 * is at most `resamples`, else `(1 + hits)/(1 + resamples)` over seeded random flips (never 0).
 * Non-finite differences are dropped; p = 1 with none.
 *
 * @example
 * pairedPermutationTest([1, 2, 3]).pValue; // 0.25: only +++ and −−− reach |Σ| = 6 of 8 assignments
 */
export function pairedPermutationTest(
  differences: readonly number[],
  options: PairedPermutationOptions = {},
): PairedPermutationResult {
  const d = differences.filter((v) => Number.isFinite(v));
  const n = d.length;
  const resamples = options.resamples ?? 10_000;
  if (n === 0) return { pValue: 1, exact: true, resamples: 0, n };
  const observed = Math.abs(d.reduce((a, b) => a + b, 0));
  // a small tolerance so that equal sums reached in another order count as ties
  const threshold = observed - 1e-12 * Math.max(1, observed);
  if (n <= 30 && 2 ** n <= resamples) {
    let hits = 0;
    const total = 2 ** n;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += mask & (1 << i) ? -(d[i] as number) : (d[i] as number);
      if (Math.abs(s) >= threshold) hits += 1;
    }
    return { pValue: hits / total, exact: true, resamples: total, n };
  }
  const next = seededRandom(options.seed ?? 0);
  let hits = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += next() < 0.5 ? -(d[i] as number) : (d[i] as number);
    if (Math.abs(s) >= threshold) hits += 1;
  }
  return { pValue: (1 + hits) / (1 + resamples), exact: false, resamples, n };
}
