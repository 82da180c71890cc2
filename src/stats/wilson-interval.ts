import { jstatDistributions } from './jstat-distributions.js';
import type { StatsInterval } from './stats-interval.js';

/**
 * Wilson score interval for a proportion (`successes` of `n`): always inside [0, 1], sensible at 0 and
 * n successes. `centre ± half` with `centre = (p̂ + z²/2n)/(1 + z²/n)` and
 * `half = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²)`. Null when `n` is 0; throws a `RangeError` when the
 * counts are not integers with `0 ≤ successes ≤ n`.
 *
 * @example
 * wilsonInterval(81, 263); // estimate 0.3079…, low 0.2553…, high 0.3662… (Newcombe 1998, table I)
 */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): StatsInterval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || successes > n)
    throw new RangeError(`wilsonInterval: need integers 0 ≤ successes ≤ n, got ${successes} of ${n}`);
  if (n === 0) return null;
  const z = jstatDistributions.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    method: 'wilson',
    estimate: p,
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
    confidence,
    se: null,
    df: null,
    n,
  };
}
