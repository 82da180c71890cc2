import { binomialTwoSidedP } from './binomial-two-sided-p.js';

/** The result of {@link signTest}. */
export interface SignTestResult {
  positive: number;
  negative: number;
  /** Zero differences (dropped, as in the classical sign test). */
  ties: number;
  pValue: number;
}

/**
 * Exact two-sided sign test on paired differences: counts the positive and negative ones (zeros and
 * non-finite values dropped) and tests them against a fair coin.
 *
 * @example
 * signTest([0.5, 1, 0.2, -0.1, 0.3, 0, 0.4]); // 5 positive, 1 negative, 1 tie, p = 0.21875
 */
export function signTest(differences: readonly number[]): SignTestResult {
  let positive = 0;
  let negative = 0;
  let ties = 0;
  for (const d of differences) {
    if (d > 0) positive += 1;
    else if (d < 0) negative += 1;
    else if (d === 0) ties += 1;
  }
  return { positive, negative, ties, pValue: binomialTwoSidedP(positive, positive + negative) };
}
