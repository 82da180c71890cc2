import type { JsonObject } from './json-value.js';

/** One declared output of a metric as stored in `tasks.jsonl`. `required` absent means true. */
export interface OutputDescriptor {
  name: string;
  description: string | null;
  value_schema: string;
  required?: boolean;
}

/** A metric as stored in `tasks.jsonl`: its type and declared outputs. */
export interface MetricDescriptor {
  type: string;
  outputs: OutputDescriptor[];
}

/** View reducers (spec §1). */
export type SemanticReducer = 'single' | 'all' | 'any' | 'mean' | 'weighted_mean';

export interface ViewSignal {
  metric: string;
  output: string;
  weight: number | null;
}

export interface SemanticView {
  reducer: SemanticReducer;
  signals: ViewSignal[];
}

/**
 * A task as the summary and the bundle see it (`AgentEvalTask` with metrics as descriptors).
 * Live metric objects are attached separately when scoring (see `ScoringTask`).
 */
export interface TaskSpec {
  id: string;
  intent: string;
  inputs: JsonObject;
  reference: JsonObject;
  metrics: MetricDescriptor[];
  views: Record<string, SemanticView>;
  metadata: JsonObject;
}
