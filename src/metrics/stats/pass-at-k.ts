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
  }
  return 1.0 - product;
}
