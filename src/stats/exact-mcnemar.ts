import { binomialTwoSidedP } from './binomial-two-sided-p.js';

/** The result of {@link exactMcNemar}. */
export interface McNemarResult {
  /** Pairs that passed in A and failed in B. */
  passToFail: number;
  /** Pairs that failed in A and passed in B. */
  failToPass: number;
  /** Exact two-sided p-value (binomial on the discordant pairs). */
  pValue: number;
}

/**
 * Exact McNemar test for paired binary outcomes: under no difference, each of the `b + c` discordant
 * pairs is equally likely to go either way, so `p = min(1, 2·P(Bin(b + c, ½) ≤ min(b, c)))`.
 * Concordant pairs carry no information and are not needed.
 *
 * @example
 * exactMcNemar(1, 6).pValue; // 0.125
 */
export function exactMcNemar(passToFail: number, failToPass: number): McNemarResult {
  return { passToFail, failToPass, pValue: binomialTwoSidedP(passToFail, passToFail + failToPass) };
}
