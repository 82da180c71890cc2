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
