import type { JsonObject, JsonValue } from './json-value.js';

export type ScoreStatus = 'completed' | 'failed' | 'partial';
export type Severity = 'error' | 'warning' | 'info';

/** `{name, value}`; the value is stored exactly as the metric returned it (coerce-and-discard). */
export interface MetricOutput {
  name: string;
  value: JsonValue;
}

export interface Diagnostic {
  severity: Severity;
  message: string;
  source: string | null;
  details: JsonObject;
}

/** `AgentEvalTaskScore`: one (task, trial, metric) score (spec §6). */
export interface ScoreRecord {
  id: string;
  run_id: string;
  task_id: string;
  trial_id: string;
  metric_type: string;
  status: ScoreStatus;
  outputs: MetricOutput[];
  diagnostics: Diagnostic[];
  metadata: JsonObject;
}
