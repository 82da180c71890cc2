import { requireTrajectory } from '../../evidence/require-trajectory.js';
import type { JsonValue } from '../../model/json-value.js';
import type { Metric } from '../../model/metric.js';
import { boolean } from '../boolean.js';
import { discreteScore } from '../discrete-score.js';

/** Options of `toolCallEfficiency`. */
export interface ToolCallEfficiencyOptions {
  /** Most times one identical call (same name and arguments) may occur and still be efficient. Default 2. */
  maxRepeatedCalls?: number;
  /** Metric type (summary key prefix). Default `tool_call_efficiency`. */
  type?: string;
}

/**
 * `tool_call_efficiency`: from the trace's tool calls (ATIF or OTLP), `max_repeated_tool_calls` = the
 * largest number of calls sharing one name and argument set (arguments compared as JSON with sorted
 * keys; 0 without calls), and `efficient_tool_use` = that number ≤ `maxRepeatedCalls`. Fails (score
 * `failed`) when the trial has no trace.
 *
 * @example
 * const m = toolCallEfficiency({ maxRepeatedCalls: 1 });
 * // a trace calling shell{command:"ls"} twice → { efficient_tool_use: false, max_repeated_tool_calls: 2 }
 */
export function toolCallEfficiency(options: ToolCallEfficiencyOptions = {}): Metric {
  const limit = options.maxRepeatedCalls ?? 2;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`maxRepeatedCalls must be an integer >= 1, got ${String(limit)}`);
  }
  return {
    type: options.type ?? 'tool_call_efficiency',
    outputSpec: () => [boolean('efficient_tool_use'), discreteScore('max_repeated_tool_calls')],
    computeScores: async (input) => {
      const view = await requireTrajectory(input.candidate.evidence);
      const counts = new Map<string, number>();
      let max = 0;
      for (const call of view.normalizedToolCalls()) {
        const key = `${call.name}\u0000${canonicalJson(call.arguments)}`;
        const n = (counts.get(key) ?? 0) + 1;
        counts.set(key, n);
        if (n > max) max = n;
      }
      return {
        outputs: [
          { name: 'efficient_tool_use', value: max <= limit },
          { name: 'max_repeated_tool_calls', value: max },
        ],
      };
    },
  };
}

function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as JsonValue)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
