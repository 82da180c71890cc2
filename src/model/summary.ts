import type { JsonValue } from './json-value.js';

/** Percentile keys p10..p100 in order. */
export const PERCENTILE_KEYS = ['p10', 'p20', 'p30', 'p40', 'p50', 'p60', 'p70', 'p80', 'p90', 'p100'] as const;
export type PercentileKey = (typeof PERCENTILE_KEYS)[number];

/** One aggregate row of `summary.scores.scores` (spec §7.2). */
export interface AggregateScore {
  name: string;
  score_type: 'range' | 'scalar';
  count: number | null;
  nan_count: number | null;
  sum: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
  std_dev: number | null;
  variance: number | null;
  sample_std_dev: number | null;
  sample_variance: number | null;
  median: number | null;
  percentiles: Record<PercentileKey, number> | null;
  histogram: JsonValue;
  /** Only for `scalar` (runner-contributed) scores. */
  value?: number | null;
}

export interface CoverageCounts {
  total: number;
  scored: number;
  failed: number;
  missing: number;
}

export type TaskValueType = 'number' | 'label' | 'missing';

/** `{trial_id, value_type, value}`; numbers keep their JSON type (bool stays bool). */
export interface TaskValueRecord {
  trial_id: string;
  value_type: TaskValueType;
  value: number | boolean | string | null;
}

/** `AgentEvalSummary` (spec §7). Extra keys are rejected on load. */
export interface Summary {
  scores: { scores: AggregateScore[] };
  metric_coverage: Record<string, Record<string, CoverageCounts>>;
  task_metric_values: Record<string, Record<string, TaskValueRecord[]>>;
  task_count: number;
  trial_count: number;
  score_count: number;
  error_trial_ids: Record<string, string[]>;
  error_count: number;
}
