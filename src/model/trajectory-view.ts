import type { JsonValue } from './json-value.js';

/**
 * A tool call as every trace format is normalised to for trajectory metrics, `inspect` and the
 * `tool_calls` table. `arguments`/`result` are null when the producer did not capture content.
 */
export interface NormalizedToolCall {
  /** The call id the producer gave (ATIF `tool_call_id`, OTel `gen_ai.tool.call.id`), or null. */
  id: string | null;
  name: string;
  arguments: JsonValue;
  result: JsonValue;
  isError: boolean;
  /** Where the call came from: ATIF step id or OTLP span id (lowercase hex). */
  origin: { kind: 'atif-step'; stepId: number | null } | { kind: 'otlp-span'; spanId: string };
}

/** Token totals of a trace; each logical model call is counted once. null = not reported. */
export interface NormalizedTokenUsage {
  input: number | null;
  output: number | null;
  cached: number | null;
  costUsd: number | null;
  /** Which vocabulary the numbers came from, e.g. `atif`, `gen_ai`, `gen_ai-deprecated`, `openinference`. */
  vocabulary: string[];
}

/**
 * What a trajectory metric may ask of any trace handle (ATIF or OTLP), so that one metric serves both.
 */
export interface TrajectoryView {
  readonly format: 'atif' | 'otlp';
  normalizedToolCalls(): NormalizedToolCall[];
  normalizedTokenUsage(): NormalizedTokenUsage;
  /** Number of steps (ATIF) or spans (OTLP). */
  stepCount(): number;
  /** Number of user turns (ATIF `user` steps; OTLP agent invocations). */
  turnCount(): number;
  /** The agent's final answer text, or null. */
  finalText(): string | null;
}
