/** How an interval was computed; the name written into `stats.json` and the compare output. */
export type IntervalMethod =
  'student_t' | 'clustered_t' | 'wilson' | 'pass_at_k_t' | 'paired_clustered_t' | 'paired_cluster_bootstrap';

/**
 * A two-sided confidence interval for an estimate. `se` and `df` are null where the method has none
 * (Wilson, bootstrap; df of a normal-based interval).
 *
 * @example
 * const i: StatsInterval = { method: 'wilson', estimate: 0.5, low: 0.2366, high: 0.7634, confidence: 0.95, se: null, df: null, n: 10 };
 */
export interface StatsInterval {
  method: IntervalMethod;
  estimate: number;
  low: number;
  high: number;
  confidence: number;
  se: number | null;
  df: number | null;
  /** Number of values the interval is about (trials, tasks or pairs, as the method says). */
  n: number;
}
