import * as z from 'zod';
import type { Metric } from '../model/metric.js';
import { contains } from './builtin/contains.js';
import { exactMatch } from './builtin/exact-match.js';
import { jsonMatch } from './builtin/json-match.js';
import { numericMatch } from './builtin/numeric-match.js';
import { regexMatch } from './builtin/regex-match.js';
import { tokenUsage } from './builtin/token-usage.js';
import { type ToolCallEfficiencyOptions, toolCallEfficiency } from './builtin/tool-call-efficiency.js';
import { trajectoryStats } from './builtin/trajectory-stats.js';
import { usage } from './builtin/usage.js';
import { verifierReward } from './builtin/verifier-reward.js';

// For factories that do not validate their own options: check the keys they take.
const typeOnly = z.object({ type: z.string().min(1).optional() }).strict();
// (zod omits absent keys, so the parsed object has no `undefined` values.)
function checked<O>(schema: z.ZodType, create: (o: O) => Metric) {
  return (options: Record<string, unknown>): Metric => create(schema.parse(options) as O);
}

/**
 * Built-in metrics by the name a config uses (`metrics.default: ['exact_match', {name: 'contains',
 * options: {...}}]`). Add a metric with one line: `name: { summary, create }`.
 *
 * @example
 * const metric = builtinRegistry['exact_match']?.create({ caseSensitive: false });
 */
export const builtinRegistry: Readonly<Record<string, BuiltinMetricEntry>> = {
  exact_match: { summary: 'answer equals reference.expected (score 1/0)', create: (o) => exactMatch(o) },
  contains: { summary: 'answer contains the keywords (score, matched_fraction)', create: (o) => contains(o) },
  regex_match: { summary: 'answer matches a regular expression (score 1/0)', create: (o) => regexMatch(o) },
  numeric_match: {
    summary: 'number in the answer within tolerance of reference.expected',
    create: (o) => numericMatch(o),
  },
  json_match: {
    summary: 'answer parses as JSON and equals/contains reference.expected',
    create: (o) => jsonMatch(o),
  },
  usage: { summary: 'token counts, runtime and cost from the trial measurements', create: (o) => usage(o) },
  verifier_reward: {
    summary: "the runner's recorded verifier rewards, one output per key",
    create: (o) => verifierReward(o),
  },
  tool_call_efficiency: {
    summary: 'repeated identical tool calls in the trace (efficient_tool_use, max_repeated_tool_calls)',
    create: checked(
      z
        .object({ type: z.string().min(1).optional(), maxRepeatedCalls: z.number().int().min(1).optional() })
        .strict(),
      (o: ToolCallEfficiencyOptions) => toolCallEfficiency(o),
    ),
  },
  trajectory_stats: {
    summary: 'step, turn and tool-call counts of the trace',
    create: checked(typeOnly, (o: { type?: string }) => trajectoryStats(o)),
  },
  token_usage: {
    summary: 'token totals from the trace, else from measurements',
    create: checked(typeOnly, (o: { type?: string }) => tokenUsage(o)),
  },
};

/** A built-in metric as configs name it: a one-line summary and a factory taking the config's options. */
export interface BuiltinMetricEntry {
  /** One line for `docs/metrics.md` and error messages. */
  summary: string;
  /** Builds the metric; throws (ZodError, RangeError...) on bad options. */
  create(options: Record<string, unknown>): Metric;
}
