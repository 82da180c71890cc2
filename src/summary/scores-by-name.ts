import type { AggregateScore, Summary } from '../model/summary.js';

/**
 * Aggregates keyed by name, first-wins on a repeated name (runner extras are appended as-is).
 *
 * @example
 * scoresByName(summary).get('harbor_reward.reward')?.mean; // 0.5
 */
export function scoresByName(summary: Pick<Summary, 'scores'>): Map<string, AggregateScore> {
  const byName = new Map<string, AggregateScore>();
  for (const row of summary.scores.scores) if (!byName.has(row.name)) byName.set(row.name, row);
  return byName;
}
