import type { JsonObject, JsonValue } from './json-value.js';

export type TrialStatus = 'completed' | 'failed' | 'partial';

export interface AgentOutput {
  output_text: string | null;
  response: JsonValue;
  metadata: JsonObject;
}

export interface TrialError {
  type: string;
  message: string | null;
  traceback: string | null;
  occurred_at: string | null;
}

/** Typed measurements; every key is always present, null = not measured, 0 = measured zero. */
export interface TrialMeasurements {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  cache_creation_tokens: number | null;
  cache_read_tokens: number | null;
  runtime_sec: number | null;
  cost_usd: number | null;
}

export const MEASUREMENT_KEYS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cache_creation_tokens',
  'cache_read_tokens',
  'runtime_sec',
  'cost_usd',
] as const satisfies readonly (keyof TrialMeasurements)[];

/** An evidence descriptor (spec §5): at least one of `ref`/`data`. */
export interface EvidenceDescriptor {
  kind: string;
  format: string | null;
  ref: string | null;
  data: JsonValue;
  description: string | null;
  metadata: JsonObject;
}

export interface EvidenceRecord {
  descriptors: Record<string, EvidenceDescriptor>;
  metadata: JsonObject;
}

/** `AgentEvalTrial` (spec §4) as stored in `trials.jsonl`. */
export interface Trial {
  id: string;
  task_id: string;
  status: TrialStatus;
  output: AgentOutput | null;
  evidence: EvidenceRecord | null;
  error: TrialError | null;
  measurements: TrialMeasurements;
  metadata: JsonObject;
}
