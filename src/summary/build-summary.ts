import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import { SummaryBuilder } from './summary-builder.js';

/** Inputs of `buildSummary`, as the SDK's `AgentEvalSummary.from_scores`. */
export interface BuildSummaryInput {
  scores: Iterable<ScoreRecord>;
  /** Task specs; null/omitted = no task specs (output names discovered from the scores). */
  tasks?: readonly TaskSpec[] | null | undefined;
  /** Trials for the error rollup; omitted = `error_trial_ids: {}`, `error_count: 0`. */
  trials?: Iterable<Pick<Trial, 'id' | 'error'>> | undefined;
  /** Runner-contributed aggregates, appended unchanged. */
  extraScores?: readonly AggregateScore[] | undefined;
}

/**
 * Build the summary of a run in one call (a wrapper over `SummaryBuilder`).
 *
 * @example
 * const summary = buildSummary({ scores, tasks });
 * summary.scores.scores[0]?.name; // e.g. 'harbor_reward.format_ok'
 */
export function buildSummary(input: BuildSummaryInput): Summary {
  const builder = new SummaryBuilder(input.tasks ?? null);
  for (const score of input.scores) builder.addScore(score);
  if (input.trials !== undefined) for (const trial of input.trials) builder.addTrial(trial);
  return builder.finish(input.extraScores ?? []);
}
