import type { StatsInterval } from './stats-interval.js';
import { tIntervalFromSe } from './student-t-interval-from-moments.js';

/**
 * Interval for the mean of values grouped in clusters (trials nested in tasks), with the clustered
 * standard error of Miller (2024, "Adding Error Bars to Evals", eq. 4):
 * `SE² = SE_CLT² + (1/n²) Σ_c Σ_i Σ_{j≠i} (x_ic − x̄)(x_jc − x̄)`, where `SE_CLT² = s²/n` is the
 * ordinary standard error. The critical value is Student-t with `G − 1` degrees of freedom (G
 * clusters), the usual choice when clusters are few; the estimate is the mean over all values (each
 * value weighs the same, as the aggregate's mean does). Non-finite values are ignored; null with fewer
 * than 2 non-empty clusters.
 *
 * @example
 * clusteredMeanInterval([[1, 1], [0, 0], [1, 0]]); // estimate 0.5, se 0.2527…, df 2
 */
export function clusteredMeanInterval(
  clusters: readonly (readonly number[])[],
  confidence = 0.95,
): StatsInterval | null {
  let n = 0;
  let sum = 0;
  let groups = 0;
  for (const cluster of clusters) {
    let size = 0;
    for (const v of cluster) {
      if (Number.isFinite(v)) {
        size += 1;
        sum += v;
      }
    }
    n += size;
    if (size > 0) groups += 1;
  }
  if (groups < 2) return null;
  const mean = sum / n;
  let squares = 0;
  let cross = 0;
  for (const cluster of clusters) {
    let residualSum = 0;
    let residualSquares = 0;
    for (const v of cluster) {
      if (!Number.isFinite(v)) continue;
      const r = v - mean;
      residualSum += r;
      residualSquares += r * r;
    }
    squares += residualSquares;
    cross += residualSum * residualSum - residualSquares;
  }
  const variance = squares / (n * (n - 1)) + cross / (n * n);
  const se = Math.sqrt(Math.max(0, variance));
  return tIntervalFromSe('clustered_t', mean, se, groups - 1, n, confidence);
}
