/**
 * Exact two-sided p-value of `k` successes in `n` fair coin flips (binomial, p = ½):
 * `min(1, 2·P(X ≤ min(k, n − k)))`. While the binomial coefficients are exact integers in a double the
 * tail is computed exactly (then scaled by 2^-n); beyond that it is summed in log space, so large `n`
 * neither underflows nor loses the small tail. 1 when `n` is 0.
 *
 * @example
 * binomialTwoSidedP(1, 7); // 2·(1 + 7)/128 = 0.125
 */
export function binomialTwoSidedP(k: number, n: number): number {
  if (n === 0) return 1;
  const m = Math.min(k, n - k);
  if (n <= 1000) {
    let coefficient = 1;
    let sum = 1;
    for (let i = 0; i < m && sum < Number.MAX_SAFE_INTEGER; i++) {
      coefficient = (coefficient * (n - i)) / (i + 1);
      sum += coefficient;
    }
    if (sum < Number.MAX_SAFE_INTEGER) return Math.min(1, 2 * sum * 2 ** -n);
  }
  let logPmf = -n * Math.LN2; // log P(X = 0)
  let logTail = logPmf;
  for (let i = 0; i < m; i++) {
    logPmf += Math.log((n - i) / (i + 1));
    const hi = Math.max(logTail, logPmf);
    logTail = hi + Math.log(Math.exp(logTail - hi) + Math.exp(logPmf - hi));
  }
  return Math.min(1, 2 * Math.exp(logTail));
}

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
