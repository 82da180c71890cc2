/** A product this small leaves `1 − product` at 1.0 (half an ulp of 1.0 below it, ties to even). */
const NEGLIGIBLE = 2 ** -54;

/**
 * The unbiased pass@k estimator (Chen et al., 2021) `1 − C(n−c, k)/C(n, k)`, computed exactly as the
 * SDK does: `1.0` when `n − c < k`, else `1 − Π_{i=n−c+1..n} (1 − k/i)` multiplied in ascending `i`.
 * The caller guarantees `1 ≤ k ≤ n` and `0 ≤ c ≤ n`.
 *
 * @example
 * passAtK(4, 2, 2); // 0.8333333333333334 (= 5/6)
 * passAtK(2, 1, 2); // 1 (n − c < k)
 */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1.0;
  let product = 1.0;
  for (let i = n - c + 1; i <= n; i++) {
    product *= 1.0 - k / i;
    // Every factor is in (0, 1) (k ≤ n − c < i), so the rounded product never grows. Once it is at
    // most 2^-54, 1 − product rounds to 1.0 exactly, whatever the remaining factors: stopping gives
    // the same bits, and one task of many trials no longer costs O(c) for every k.
    if (product <= NEGLIGIBLE) return 1.0;
  }
  return 1.0 - product;
}
