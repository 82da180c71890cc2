/**
 * Built-in outputs where less is better: tokens, cost, time, errors and repeated calls. `compare`
 * treats them as `--lower-is-better` unless told otherwise (`higherIsBetter`). Outputs whose better
 * direction depends on the task (steps, turns, tool calls, cached tokens) are not listed: higher is
 * better for them, as for any other output, unless named.
 */
const LOWER_IS_BETTER: ReadonlySet<string> = new Set([
  'token_usage.input_tokens',
  'token_usage.output_tokens',
  'token_usage.total_tokens',
  'token_usage.cost_usd',
  'usage.prompt_tokens',
  'usage.completion_tokens',
  'usage.total_tokens',
  'usage.cache_creation_tokens',
  'usage.runtime_sec',
  'usage.cost_usd',
  'trajectory_stats.tool_errors',
  'tool_call_efficiency.max_repeated_tool_calls',
]);

/**
 * Whether lower is better for an output by default (a built-in output of a cost, time or error).
 *
 * @example
 * lowerIsBetterByDefault('token_usage.total_tokens'); // true
 * lowerIsBetterByDefault('verifier_reward.reward'); // false
 */
export function lowerIsBetterByDefault(name: string): boolean {
  return LOWER_IS_BETTER.has(name);
}
