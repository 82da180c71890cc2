import { seededRandom } from './seeded-random.js';
import type { StatsInterval } from './stats-interval.js';

/** Options of {@link pairedBootstrapInterval}. */
export interface PairedBootstrapOptions {
  /** Seed of the resampling. Default 0. */
  seed?: number;
  /** Bootstrap resamples. Default 2,000. */
  resamples?: number;
  confidence?: number;
}

/**
 * Seeded percentile bootstrap interval for the mean paired difference, resampling whole clusters
 * (tasks) with replacement so that trials of one task stay together. Each resample's statistic is the
 * mean over the pairs it holds (each pair weighs the same, as in the point estimate); the interval is
 * the `(1−c)/2` and `(1+c)/2` quantiles of the resampled means (linear interpolation, as numpy's
 * default). Non-finite differences are dropped; null with fewer than 2 non-empty clusters.
 *
 * @example
 * pairedBootstrapInterval([[1, 0], [0], [1, 1]], { seed: 7 }); // estimate 0.6, a seeded interval in [0, 1]
 */
export function pairedBootstrapInterval(
  clusters: readonly (readonly number[])[],
  options: PairedBootstrapOptions = {},
): StatsInterval | null {
  const confidence = options.confidence ?? 0.95;
  const resamples = options.resamples ?? 2_000;
  const kept = clusters.map((c) => c.filter((v) => Number.isFinite(v))).filter((c) => c.length > 0);
  const sums = kept.map((c) => c.reduce((a, b) => a + b, 0));
  const sizes = kept.map((c) => c.length);
  const g = sums.length;
  if (g < 2) return null;
  const n = sizes.reduce((a, b) => a + b, 0);
  const estimate = sums.reduce((a, b) => a + b, 0) / n;
  const next = seededRandom(options.seed ?? 0);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let size = 0;
    for (let i = 0; i < g; i++) {
      const pick = Math.floor(next() * g);
      sum += sums[pick] as number;
      size += sizes[pick] as number;
    }
    means[r] = sum / size;
  }
  means.sort();
  return {
    method: 'paired_cluster_bootstrap',
    estimate,
    low: quantile(means, (1 - confidence) / 2),
    high: quantile(means, (1 + confidence) / 2),
    confidence,
    se: null,
    df: null,
    n,
  };
}

function quantile(sorted: Float64Array, q: number): number {
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const lo = sorted[below] as number;
  return lo + (position - below) * ((sorted[above] as number) - lo);
}
