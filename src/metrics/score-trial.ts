import type { Metric } from '../model/metric.js';
import type { Diagnostic, MetricOutput, ScoreRecord } from '../model/score-record.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import type { Trial } from '../model/trial.js';
import { buildMetricInput } from './build-metric-input.js';
import { pyValueRepr } from '../pycompat/py-value-repr.js';
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
export function scoreTrial(
  item: TrialItem,
  task: TaskSpec,
  metrics: readonly Metric[],
  options: ScoreTrialOptions,
): Promise<ScoreRecord[]> {
  const { trial } = item;
  const n = metrics.length;
  if (trial.status === 'failed') {
    const message = `trial ${pyValueRepr(trial.id)} is failed`;
    const diagnostics = (source: string): Diagnostic[] => [
      { severity: 'error', message, source, details: { trial_status: 'failed' } },
    ];
    return Promise.resolve(
      metrics.map((m) => record(trial, task, options, m.type, 'failed', [], diagnostics(m.type))),
    );
  }
  if (n === 0) return Promise.resolve([]);
  // one timer stands for every metric's time limit: they start together
  const timeoutMs = options.timeoutMs ?? null;
  let timer: NodeJS.Timeout | undefined;
  const timedOut =
    timeoutMs === null || timeoutMs <= 0
      ? null
      : new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new MetricTimeoutError(timeoutMs)), timeoutMs);
        });
  timedOut?.catch(() => undefined);
  const scoreOne = async (metric: Metric): Promise<ScoreRecord> => {
    try {
      const specs = metric.outputSpec();
      const running = metric.computeScores(buildMetricInput(item, task, options.rowIndex));
      const raw = await (timedOut === null ? running : Promise.race([running, timedOut]));
      const outputs = validateMetricResult(raw, specs).outputs;
      return record(trial, task, options, metric.type, 'completed', outputs, []);
    } catch (caught) {
      const error = caught instanceof MetricTimeoutError ? caught.of(metric.type) : caught;
      if (options.failFast === true) throw error;
      const diagnostics = [exceptionDiagnostic(error, metric.type)];
      return record(trial, task, options, metric.type, 'failed', [], diagnostics);
    }
  };
  return Promise.all(metrics.map(scoreOne)).finally(() => clearTimeout(timer));
}

/** One score record; keys in the SDK's order. */
function record(
  trial: Trial,
  task: TaskSpec,
  { runId, rowIndex }: ScoreTrialOptions,
  metricType: string,
  status: 'completed' | 'failed',
  outputs: MetricOutput[],
  diagnostics: Diagnostic[],
): ScoreRecord {
  return {
    id: `${runId}:${task.id}:${trial.id}:${metricType}`,
    run_id: runId,
    task_id: task.id,
    trial_id: trial.id,
    metric_type: metricType,
    metadata: { row_index: rowIndex, trial_metadata: trial.metadata },
    status,
    outputs,
    diagnostics,
  };
}

/** A metric that did not finish within the timeout: a failure of type `TimeoutError`, as asyncio's. */
class MetricTimeoutError extends Error {
  override readonly name = 'MetricTimeoutError';
  readonly exceptionType = 'TimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly metricType = '',
  ) {
    super(`metric '${metricType}' timed out after ${timeoutMs} ms`);
  }

  /** The same timeout, naming the metric it stopped. */
  of(metricType: string): MetricTimeoutError {
    return new MetricTimeoutError(this.timeoutMs, metricType);
  }
}

/**
 * The diagnostic of a metric failure (the SDK's `_exception_diagnostic`): message = the error's text,
 * or its class name when empty; `details.exception_type` = a string `exceptionType` property of the
 * error (its Python-side class, e.g. `ValidationError`), else its constructor's name;
 * `UnknownException` for a thrown non-Error.
 */
function exceptionDiagnostic(error: unknown, metricType: string): Diagnostic {
  const type = exceptionTypeName(error);
  const text =
    error instanceof Error ? error.message : error === undefined || error === null ? '' : String(error);
  return { severity: 'error', message: text || type, source: metricType, details: { exception_type: type } };
}

function exceptionTypeName(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const declared = (error as { exceptionType?: unknown }).exceptionType;
    if (typeof declared === 'string' && declared !== '') return declared;
    if (error instanceof Error) {
      const ctor = error.constructor?.name;
      return ctor && ctor !== 'Object' ? ctor : error.name || 'Error';
    }
  }
  return 'UnknownException';
}
