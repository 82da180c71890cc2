import type { Metric } from '../model/metric.js';
import type { Diagnostic, ScoreRecord } from '../model/score-record.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import { buildMetricInput } from './build-metric-input.js';
import { exceptionDiagnostic } from './exception-diagnostic.js';
import { MetricTimeoutError } from './metric-timeout-error.js';
import { pyValueRepr } from './py-value-repr.js';
import { validateMetricResult } from './validate-metric-result.js';

/** How {@link scoreTrial} scores. */
export interface ScoreTrialOptions {
  runId: string;
  /** The task's position in the run (first-seen order); `metadata.row_index` and `row.row_index`. */
  rowIndex: number;
  /** Per-metric time limit in ms; null or 0 = none. Default none. */
  timeoutMs?: number | null;
  /** Rethrow a metric's exception (or validation/timeout error) instead of recording a failed score. */
  failFast?: boolean;
}

/**
 * Scores one trial with each metric: exactly one `ScoreRecord` per metric, in metric order (spec §3.4).
 * A `failed` trial is not shown to the metrics (failed score, `trial '<id>' is failed`,
 * `details.trial_status`); a metric that throws, returns an invalid result or times out gives a failed
 * score with the error text and `details.exception_type`; otherwise a completed score holding the
 * outputs exactly as returned. Metrics of one trial run concurrently. Rejects only with `failFast`.
 *
 * @example
 * const scores = await scoreTrial(item, task, [exactMatch()], { runId: 'r', rowIndex: 0 });
 * scores[0].id; // 'r:<task>:<trial>:exact_match'
 */
export async function scoreTrial(
  item: TrialItem,
  task: TaskSpec,
  metrics: readonly Metric[],
  options: ScoreTrialOptions,
): Promise<ScoreRecord[]> {
  return Promise.all(metrics.map((metric) => scoreOne(item, task, metric, options)));
}

async function scoreOne(
  item: TrialItem,
  task: TaskSpec,
  metric: Metric,
  options: ScoreTrialOptions,
): Promise<ScoreRecord> {
  const { trial } = item;
  const metricType = metric.type;
  const base = {
    id: `${options.runId}:${task.id}:${trial.id}:${metricType}`,
    run_id: options.runId,
    task_id: task.id,
    trial_id: trial.id,
    metric_type: metricType,
    metadata: { row_index: options.rowIndex, trial_metadata: trial.metadata },
  };
  const failed = (diagnostic: Diagnostic): ScoreRecord => ({
    ...base,
    status: 'failed',
    outputs: [],
    diagnostics: [diagnostic],
  });
  if (trial.status === 'failed') {
    return failed({
      severity: 'error',
      message: `trial ${pyValueRepr(trial.id)} is failed`,
      source: metricType,
      details: { trial_status: 'failed' },
    });
  }
  try {
    const result = await withTimeout(
      async () => {
        const specs = metric.outputSpec();
        const raw: unknown = await metric.computeScores(buildMetricInput(item, task, options.rowIndex));
        return validateMetricResult(raw, specs);
      },
      metricType,
      options.timeoutMs ?? null,
    );
    return { ...base, status: 'completed', outputs: result.outputs, diagnostics: [] };
  } catch (error) {
    if (options.failFast === true) throw error;
    return failed(exceptionDiagnostic(error, metricType));
  }
}

async function withTimeout<T>(
  run: () => Promise<T>,
  metricType: string,
  timeoutMs: number | null,
): Promise<T> {
  if (timeoutMs === null || timeoutMs <= 0) return run();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new MetricTimeoutError(metricType, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
