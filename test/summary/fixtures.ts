import type { OutputKind } from '../../src/model/output-spec.js';
import type { JsonValue } from '../../src/model/json-value.js';
import type { ScoreRecord, ScoreStatus } from '../../src/model/score-record.js';
import type { MetricDescriptor, SemanticReducer, SemanticView, TaskSpec } from '../../src/model/task.js';

const SCHEMA: Record<OutputKind, string> = {
  continuous: 'ContinuousScore',
  discrete: 'DiscreteScore',
  boolean: 'BooleanValue',
  label: 'Label',
  model: 'TokenCount',
};

/** `metric('m', { reward: 'continuous', note: ['label', false] })` — `false` marks an optional output. */
export function metric(
  type: string,
  outputs: Record<string, OutputKind | [OutputKind, boolean]>,
): MetricDescriptor {
  return {
    type,
    outputs: Object.entries(outputs).map(([name, spec]) => {
      const [kind, required] = Array.isArray(spec) ? spec : [spec, true];
      return { name, description: null, value_schema: SCHEMA[kind], required };
    }),
  };
}

export function view(
  reducer: SemanticReducer,
  ...signals: [metric: string, output: string, weight?: number | null][]
): SemanticView {
  return { reducer, signals: signals.map(([m, o, w]) => ({ metric: m, output: o, weight: w ?? null })) };
}

export function task(
  id: string,
  metrics: MetricDescriptor[],
  views: Record<string, SemanticView> = {},
): TaskSpec {
  return { id, intent: '', inputs: {}, reference: {}, metrics, views, metadata: {} };
}

/** A completed score: `score('A', 'a1', 'm', { reward: 1.0 })` (outputs in the given order). */
export function score(
  taskId: string,
  trialId: string,
  metricType: string,
  outputs: Record<string, JsonValue> | [string, JsonValue][],
  status: ScoreStatus = 'completed',
): ScoreRecord {
  const list = Array.isArray(outputs) ? outputs : Object.entries(outputs);
  return {
    id: `R:${taskId}:${trialId}:${metricType}`,
    run_id: 'R',
    task_id: taskId,
    trial_id: trialId,
    metric_type: metricType,
    status,
    outputs: list.map(([name, value]) => ({ name, value })),
    diagnostics: [],
    metadata: {},
  };
}

/** A failed score of a dead trial (a trial failure). */
export function deadTrial(taskId: string, trialId: string, metricType: string): ScoreRecord {
  return {
    ...score(taskId, trialId, metricType, {}, 'failed'),
    diagnostics: [
      {
        severity: 'error',
        message: `trial '${trialId}' is failed`,
        source: metricType,
        details: { trial_status: 'failed' },
      },
    ],
  };
}

/** A failed score whose metric raised (a metric failure). */
export function metricFailed(taskId: string, trialId: string, metricType: string): ScoreRecord {
  return {
    ...score(taskId, trialId, metricType, {}, 'failed'),
    diagnostics: [
      { severity: 'error', message: 'boom', source: metricType, details: { exception_type: 'TimeoutError' } },
    ],
  };
}
