import type { NormalizedToolCall } from '../model/trajectory-view.js';
import { compactJson } from './compact-json.js';
import type { CompactTrajectory } from './report-data.js';

/**
 * The compact trajectory of a step-less trace (e.g. OTLP): its normalised tool calls with arguments
 * and results cut to `maxText` characters per string, at most `maxCalls` (default 400) calls.
 *
 * @example
 * compactToolCalls('otlp', view.normalizedToolCalls(), { maxText: 4000 });
 */
export function compactToolCalls(
  format: string,
  calls: readonly NormalizedToolCall[],
  options: { maxText: number; maxCalls?: number },
): CompactTrajectory {
  const maxCalls = options.maxCalls ?? 400;
  const limits = { maxText: options.maxText };
  return {
    format,
    agent: null,
    steps: [],
    calls: calls.slice(0, maxCalls).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: compactJson(call.arguments, limits),
      result: compactJson(call.result, limits),
      isError: call.isError,
    })),
    note: calls.length > maxCalls ? `showing the first ${maxCalls} of ${calls.length} tool calls` : null,
  };
}
