import type { z } from 'zod';
import type { rowSchemas } from '../bundle/row-schemas.js';

/**
 * `AgentEvalTaskScore`: one (task, trial, metric) score (spec §6), the output of `rowSchemas.score`.
 * Output values are stored exactly as the metric returned them (coerce-and-discard).
 *
 * @example
 * const s: ScoreRecord = { id: 's1', run_id: 'R', task_id: 'A', trial_id: 't1', metric_type: 'm', status: 'completed', outputs: [{ name: 'reward', value: 1 }], diagnostics: [], metadata: {} };
 */
export type ScoreRecord = z.output<typeof rowSchemas.score>;
export type ScoreStatus = ScoreRecord['status'];
export type MetricOutput = ScoreRecord['outputs'][number];
export type Diagnostic = ScoreRecord['diagnostics'][number];
