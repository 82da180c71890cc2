import { findRecordedRewards } from '../metrics/builtin/find-recorded-rewards.js';
import type { Trial } from '../model/trial.js';

/** Trace formats `CandidateEvidence.trace()` can open (a null format counts as ATIF). */
const READABLE_TRACE_FORMATS = [null, 'atif', 'otlp'];

/**
 * The built-in metrics that suit a trial's evidence when no config names any: `trajectory_stats`,
 * `token_usage` and `tool_call_efficiency` when it has a readable primary trace (descriptor `trace`,
 * kind `trace`, format atif/otlp/null), then `verifier_reward` when the runner recorded rewards in the
 * trial or output metadata. Pure.
 *
 * @example
 * defaultMetricNames(harborTrial); // ['trajectory_stats', 'token_usage', 'tool_call_efficiency', 'verifier_reward']
 */
export function defaultMetricNames(trial: Trial): string[] {
  const names: string[] = [];
  const trace = trial.evidence?.descriptors['trace'];
  if (trace !== undefined && trace.kind === 'trace' && READABLE_TRACE_FORMATS.includes(trace.format)) {
    names.push('trajectory_stats', 'token_usage', 'tool_call_efficiency');
  }
  const outputMetadata = trial.output?.metadata ?? {};
  if (findRecordedRewards(trial.metadata) !== null || findRecordedRewards(outputMetadata) !== null) {
    names.push('verifier_reward');
  }
  return names;
}
