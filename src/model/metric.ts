import type { JsonObject, JsonValue } from './json-value.js';
import type { MetricOutput } from './score-record.js';
import type { MetricOutputSpec } from './output-spec.js';
import type { TrialError, TrialMeasurements, TrialStatus } from './trial.js';
import type { CandidateEvidence } from '../evidence/candidate-evidence.js';

/** What `computeScores` receives about the task and trial (spec §3.5, `input.row`). */
export interface MetricRow {
  row_index: number;
  data: {
    reference: JsonObject;
    inputs: JsonObject;
    task: { id: string; intent: string; metadata: JsonObject };
    trial: {
      id: string;
      task_id: string;
      status: TrialStatus;
      error: TrialError | null;
      measurements: TrialMeasurements;
      metadata: JsonObject;
    };
  };
}

/** The trial under evaluation (spec §3.5, `input.candidate`). */
export interface CandidateOutput {
  output_text: string | null;
  response: JsonValue;
  trajectory: JsonValue;
  evidence: CandidateEvidence | null;
  metadata: JsonObject;
}

export interface MetricInput {
  row: MetricRow;
  candidate: CandidateOutput;
}

export interface MetricResult {
  outputs: MetricOutput[];
}

/**
 * The metric protocol: any object with these three members (structural, no base class).
 *
 * @example
 * const m: Metric = {
 *   type: 'my_metric',
 *   outputSpec: () => [continuousScore('score')],
 *   computeScores: async () => ({ outputs: [{ name: 'score', value: 1.0 }] }),
 * };
 */
export interface Metric {
  readonly type: string;
  outputSpec(): MetricOutputSpec[];
  computeScores(input: MetricInput): Promise<MetricResult>;
}
