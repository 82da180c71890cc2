import { studentTQuantile } from '../../pycompat/student-t-quantile.js';

/** The result of {@link clusterTInterval95}. */
export interface ClusterIntervalResult {
  /** Mean over all values (each value weighs the same, as in the aggregate). */
  mean: number;
  lo: number;
  hi: number;
  /** Number of values. */
  n: number;
  /** Number of non-empty groups (tasks). */
  clusters: number;
  /** `cluster` when groups ≥ 2, `iid` for a single group (repeats of one task). */
  method: 'cluster' | 'iid';
}

/**
 * Two-sided 95% interval for the mean of values grouped by task (trials nested in tasks).
 *
 * With G ≥ 2 non-empty groups: Student-t with G−1 degrees of freedom and the cluster-robust (CR1)
 * standard error `√(G/(G−1) · Σ_g (n_g(ȳ_g − ȳ))²) / N`, centred on the overall mean ȳ. With equal
 * group sizes this is exactly the t-interval over per-task means. With one group: the ordinary
 * t-interval over its values (df = n−1). Null when there are fewer than 2 values; non-finite values
 * are ignored.
 *
 * @example
 * clusterTInterval95([[1, 0], [1, 1], [0, 0]]); // t over task means 0.5, 1, 0 → mean 0.5
 */
export function clusterTInterval95(groups: readonly Iterable<number>[]): ClusterIntervalResult | null {
  const sums: number[] = [];
  const sizes: number[] = [];
  for (const group of groups) {
    let sum = 0;
    let size = 0;
    for (const v of group) {
      if (Number.isFinite(v)) {
        sum += v;
        size += 1;
      }
    }
    if (size > 0) {
      sums.push(sum);
      sizes.push(size);
    }
  }
  const clusters = sizes.length;
  const n = sizes.reduce((a, b) => a + b, 0);
  if (n < 2) return null;
  const mean = sums.reduce((a, b) => a + b, 0) / n;
  if (clusters === 1) {
    let ss = 0;
    for (const group of groups) for (const v of group) if (Number.isFinite(v)) ss += (v - mean) ** 2;
    const half = studentTQuantile(0.975, n - 1) * Math.sqrt(ss / (n - 1) / n);
    return { mean, lo: mean - half, hi: mean + half, n, clusters, method: 'iid' };
  }
  let score = 0;
  for (let g = 0; g < clusters; g += 1) {
    const size = sizes[g] as number;
    const residual = (sums[g] as number) - size * mean; // n_g (ȳ_g − ȳ)
    score += residual * residual;
  }
  const se = Math.sqrt((clusters / (clusters - 1)) * score) / n;
  const half = studentTQuantile(0.975, clusters - 1) * se;
  return { mean, lo: mean - half, hi: mean + half, n, clusters, method: 'cluster' };
}
