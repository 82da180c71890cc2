import type { z } from 'zod';
import type { summarySchema } from '../summary/summary-schema.js';

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

/**
 * `AgentEvalSummary` (spec §7): the output of `summarySchema`, which rejects extra keys on load.
 *
 * @example
 * const s: Summary = { scores: { scores: [] }, metric_coverage: {}, task_metric_values: {}, task_count: 0, trial_count: 0, score_count: 0, error_trial_ids: {}, error_count: 0 };
 */
export type Summary = z.output<typeof summarySchema>;

/**
 * One row of `summary.scores.scores` (the SDK's `AggregateScore` union), told apart by `score_type`.
 * `count` (finite values used; null = unknown sample size, a backend figure) and `nan_count` are
 * integers; every other number is a float (Python `float`, written with a decimal point).
 */
export type AggregateScore = Summary['scores']['scores'][number];
/** `AggregateRangeScore`: what the summary computes for outputs, views and pass@k (spec §7.2). */
export type AggregateRangeScore = Extract<AggregateScore, { score_type: 'range' }>;
/** `AggregateScalarScore`: one backend-reported figure (runner extras), no distribution. */
export type AggregateScalarScore = Extract<AggregateScore, { score_type: 'scalar' }>;
/** `AggregateRubricScore`: rubric distribution (only ever arrives as an extra). */
export type AggregateRubricScore = Extract<AggregateScore, { score_type: 'rubric' }>;
/** `Percentiles` (extra keys forbidden): every key present, each a float. */
export type Percentiles = NonNullable<AggregateRangeScore['percentiles']>;

/**
 * The integer-valued keys of an aggregate (at any depth: `histogram.bins[].count`,
 * `rubric_distribution[].count`). Every other numeric key is a float for the JSON writer.
 */
export const AGGREGATE_INTEGER_KEYS = ['count', 'nan_count'] as const;

/** `{total, scored, failed, missing}`, all integers. */
export type CoverageCounts = Summary['metric_coverage'][string][string];

/**
 * `{trial_id, value_type, value}`; numbers keep their JSON type (bool stays bool). In memory a
 * `number` record may hold NaN/±Infinity; the wire form escapes them (see `encodeTaskValueRecord`).
 */
export interface TaskValueRecord {
  trial_id: string;
  value_type: 'number' | 'label' | 'missing';
  value: number | boolean | string | null;
}
