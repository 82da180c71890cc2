/** Percentile keys p10..p100 in order. */
export const PERCENTILE_KEYS = [
  'p10',
  'p20',
  'p30',
  'p40',
  'p50',
  'p60',
  'p70',
  'p80',
  'p90',
  'p100',
] as const;
export type PercentileKey = (typeof PERCENTILE_KEYS)[number];

/** `Percentiles` (extra keys forbidden): every key present, each a float. */
export type Percentiles = Record<PercentileKey, number>;

/** `HistogramBin`: bounds are floats, `count` is an integer. */
export interface HistogramBin {
  lower_bound: number;
  upper_bound: number;
  count: number;
}

/** `Histogram`: never computed by the agent-eval summary (always null there), kept for loaded extras. */
export interface Histogram {
  bins: HistogramBin[];
}

/** `RubricScoreStat`: `value` is a float, `count` an integer. */
export interface RubricScoreStat {
  label: string;
  description: string | null;
  value: number;
  count: number;
}

/**
 * Fields every aggregate shares (`AggregateScoreBase`, extra keys forbidden). `count`/`nan_count` are
 * integers; every other number is a float (Python `float`, written with a decimal point).
 */
export interface AggregateScoreBase {
  name: string;
  /** Finite values used; null = unknown sample size (a backend figure), distinct from 0. */
  count: number | null;
  nan_count: number;
  sum: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
  median: number | null;
  std_dev: number | null;
  variance: number | null;
  sample_std_dev: number | null;
  sample_variance: number | null;
}

/** `AggregateRangeScore`: what the summary computes for outputs, views and pass@k (spec §7.2). */
export interface AggregateRangeScore extends AggregateScoreBase {
  score_type: 'range';
  percentiles: Percentiles | null;
  histogram: Histogram | null;
}

/** `AggregateScalarScore`: one backend-reported figure (runner extras), no distribution. */
export interface AggregateScalarScore extends AggregateScoreBase {
  score_type: 'scalar';
  value: number;
}

/** `AggregateRubricScore`: rubric distribution (only ever arrives as an extra). */
export interface AggregateRubricScore extends AggregateScoreBase {
  score_type: 'rubric';
  rubric_distribution: RubricScoreStat[];
  mode_category: string | null;
}

/** One row of `summary.scores.scores` (the SDK's `AggregateScore` union), told apart by `score_type`. */
export type AggregateScore = AggregateRangeScore | AggregateScalarScore | AggregateRubricScore;

/**
 * The integer-valued keys of an aggregate (at any depth: `histogram.bins[].count`,
 * `rubric_distribution[].count`). Every other numeric key is a float for the JSON writer.
 */
export const AGGREGATE_INTEGER_KEYS = ['count', 'nan_count'] as const;

/** `{total, scored, failed, missing}`, all integers. */
export interface CoverageCounts {
  total: number;
  scored: number;
  failed: number;
  missing: number;
}

export type TaskValueType = 'number' | 'label' | 'missing';

/**
 * `{trial_id, value_type, value}`; numbers keep their JSON type (bool stays bool). In memory a
 * `number` record may hold NaN/±Infinity; the wire form escapes them (see `encodeTaskValueRecord`).
 */
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
