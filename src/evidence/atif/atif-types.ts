import type { JsonValue } from '../../model/json-value.js';

/*
 * ATIF v1.0–v1.8 trajectory types (Harbor RFC 0001). Every object may carry unknown keys (kept on
 * read); optional fields may be absent or null. See docs/evidence.md for the rules enforced on load.
 */

/** A free-form JSON object (`extra`). */
export type AtifExtra = { [key: string]: unknown };

/** Media source of an image (v1.6) or audio (v1.8) content part. */
export interface AtifMediaSource {
  media_type: string;
  path: string;
  duration_sec?: number | null | undefined;
  [key: string]: unknown;
}

/** A multimodal content part (v1.6+): `text` carries `text`, media parts carry `source`. */
export interface AtifContentPart {
  type: 'text' | 'image' | 'audio';
  text?: string | null | undefined;
  source?: AtifMediaSource | null | undefined;
  [key: string]: unknown;
}

/** A step `message` or observation `content`: plain text or (v1.6+) a list of content parts. */
export type AtifMessage = string | AtifContentPart[];

export interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: { [key: string]: JsonValue };
  extra?: AtifExtra | null | undefined;
  [key: string]: unknown;
}

export interface AtifSubagentTrajectoryRef {
  trajectory_id?: string | null | undefined;
  trajectory_path?: string | null | undefined;
  session_id?: string | null | undefined;
  extra?: AtifExtra | null | undefined;
  [key: string]: unknown;
}

export interface AtifObservationResult {
  source_call_id?: string | null | undefined;
  /** Tool output: text, content parts, or (leniently) any JSON a producer wrote. */
  content?: JsonValue | undefined;
  subagent_trajectory_ref?: AtifSubagentTrajectoryRef[] | null | undefined;
  extra?: AtifExtra | null | undefined;
  [key: string]: unknown;
}

export interface AtifObservation {
  results: AtifObservationResult[];
  [key: string]: unknown;
}

export interface AtifStepMetrics {
  prompt_tokens?: number | null | undefined;
  completion_tokens?: number | null | undefined;
  cached_tokens?: number | null | undefined;
  cost_usd?: number | null | undefined;
  prompt_token_ids?: number[] | null | undefined;
  completion_token_ids?: number[] | null | undefined;
  logprobs?: (number | null)[] | null | undefined;
  extra?: AtifExtra | null | undefined;
  [key: string]: unknown;
}

export type AtifStepSource = 'system' | 'user' | 'agent';

export interface AtifStep {
  step_id: number;
  timestamp?: string | null | undefined;
  source: AtifStepSource;
  model_name?: string | null | undefined;
  reasoning_effort?: string | number | null | undefined;
  message: AtifMessage;
  reasoning_content?: string | null | undefined;
  tool_calls?: AtifToolCall[] | null | undefined;
  observation?: AtifObservation | null | undefined;
  metrics?: AtifStepMetrics | null | undefined;
  extra?: AtifExtra | null | undefined;
  llm_call_count?: number | null | undefined;
  is_copied_context?: boolean | null | undefined;
  [key: string]: unknown;
}

export interface AtifAgent {
  name: string;
  version: string;
  model_name?: string | null | undefined;
  tool_definitions?: JsonValue[] | null | undefined;
  extra?: AtifExtra | null | undefined;
  [key: string]: unknown;
}

/** Trajectory totals (`final_metrics`), also what `ATIFTraceHandle.tokenUsage()` returns. */
export interface AtifFinalMetrics {
  total_prompt_tokens?: number | null | undefined;
  total_completion_tokens?: number | null | undefined;
  total_cached_tokens?: number | null | undefined;
  total_cost_usd?: number | null | undefined;
  total_steps?: number | null | undefined;
  extra?: AtifExtra | null | undefined;
  [key: string]: unknown;
}

export interface AtifTrajectory {
  schema_version: string;
  session_id?: string | null | undefined;
  trajectory_id?: string | null | undefined;
  agent: AtifAgent;
  steps: AtifStep[];
  notes?: string | null | undefined;
  final_metrics?: AtifFinalMetrics | null | undefined;
  continued_trajectory_ref?: string | null | undefined;
  extra?: AtifExtra | null | undefined;
  subagent_trajectories?: AtifTrajectory[] | null | undefined;
  [key: string]: unknown;
}
