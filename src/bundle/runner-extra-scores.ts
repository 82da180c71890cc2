import type { AggregateScore, Summary } from '../model/summary.js';

/**
 * The runner-contributed aggregates of a stored summary (names under `runner.`, spec §1/§7.7): they
 * cannot be recomputed from scores, so re-summarising a bundle carries them over unchanged.
 *
 * @example
 * new SummaryAccumulator(tasks).finish(runnerExtraScores(oldSummary));
 */
export function runnerExtraScores(summary: Summary | null): AggregateScore[] {
  return summary === null ? [] : summary.scores.scores.filter((s) => s.name.startsWith('runner.'));
}
