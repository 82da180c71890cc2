import type { StatsInterval } from '../stats/stats-interval.js';
import { formatStat } from './format-stat.js';

/**
 * An interval for people: `[low, high]` with {@link formatStat}, `—` when there is none.
 *
 * @example
 * formatInterval({ low: 0.1, high: 0.35 } as StatsInterval); // '[0.1, 0.35]'
 */
export function formatInterval(interval: StatsInterval | null): string {
  return interval === null ? '—' : `[${formatStat(interval.low)}, ${formatStat(interval.high)}]`;
}
