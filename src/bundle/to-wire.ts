import type { TaskSpec } from '../model/task.js';
import { PyFloat } from '../pycompat/py-float.js';
import type { WireObject, WireValue } from '../pycompat/wire-value.js';
import type { JsonValue } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import { rowSources } from './row-sources.js';
import type { Trial } from '../model/trial.js';
import { AGGREGATE_INTEGER_KEYS, type AggregateScore, type Summary } from '../model/summary.js';
import { encodeTaskValueRecord } from '../summary/encode-task-value-record.js';
import { setOwn } from '../util/set-own.js';
import type { RunMetadata } from './run-metadata.js';

/**
 * A task in its `tasks.jsonl` form (metrics as descriptors; view weights are floats; `required` is
 * written only when the descriptor carries it).
 *
 * @example
 * pythonJson(taskToWire(task)); // '{"id": "A", "inputs": {...}, ...}'
 */
export function taskToWire(task: TaskSpec): WireObject {
  return {
    id: task.id,
    intent: task.intent,
    inputs: task.inputs,
    reference: task.reference,
    metrics: task.metrics.map((metric) => ({
      type: metric.type,
      outputs: metric.outputs.map((o) => ({
        name: o.name,
        description: o.description,
        value_schema: o.value_schema,
        ...(o.required === undefined ? {} : { required: o.required }),
      })),
    })),
    views: Object.fromEntries(
      Object.entries(task.views).map(([name, view]) => [
        name,
        {
          reducer: view.reducer,
          signals: view.signals.map((s) => ({
            metric: s.metric,
            output: s.output,
            weight: s.weight === null ? null : new PyFloat(s.weight),
          })),
        },
      ]),
    ),
    metadata: task.metadata,
  };
}

/** Looks up the declared `value_schema` of a metric output (from the task spec), if known. */
export type ValueSchemaLookup = (metricType: string, outputName: string) => string | undefined;

/**
 * A score record in its `scores.jsonl` form. Output values: NaN → `"NaN"`, ±Infinity → `null`
 * (spec §3.2). A finite number keeps the JSON type it was read with (rows from a bundle); a number
 * built in memory prints as a float when the task declares the output `ContinuousScore`, otherwise
 * as an int when integral.
 *
 * @example
 * scoreToWire(score, () => 'ContinuousScore'); // outputs[0].value: PyFloat(1)
 */
export function scoreToWire(score: ScoreRecord, valueSchemaOf?: ValueSchemaLookup): WireObject {
  const fromText = rowSources.isFromText(score);
  // keys in written (sorted) order, so the writer finds them sorted and need not sort
  return {
    diagnostics: score.diagnostics.map((d) => ({
      details: d.details,
      message: d.message,
      severity: d.severity,
      source: d.source,
    })),
    id: score.id,
    metadata: score.metadata,
    metric_type: score.metric_type,
    outputs: score.outputs.map((o) => ({
      name: o.name,
      value: scoreOutputToWire(
        o.value,
        fromText || valueSchemaOf?.(score.metric_type, o.name) !== 'ContinuousScore',
      ),
    })),
    run_id: score.run_id,
    status: score.status,
    task_id: score.task_id,
    trial_id: score.trial_id,
  };
}

/**
 * A score output's value in wire form: NaN → `"NaN"`, ±Infinity → null, a finite number as it is when
 * `keepJsonType`, else boxed as a float; any other value unchanged.
 *
 * @example
 * scoreOutputToWire(1, false); // PyFloat(1)
 */
export function scoreOutputToWire(value: JsonValue, keepJsonType: boolean): WireValue {
  if (typeof value !== 'number') return value;
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return null;
  return keepJsonType ? value : new PyFloat(value);
}

/**
 * A trial in its `trials.jsonl` form: `runtime_sec` / `cost_usd` are floats, token counts ints;
 * `mapRef` decides what each evidence `ref` is stored as (bundle-relative when inside the bundle).
 *
 * @example
 * trialToWire(trial, await new EvidencePlacer(bundleDir).place(trial));
 */
export function trialToWire(
  trial: Trial,
  mapRef: (ref: string | null) => string | null = (r) => r,
): WireObject {
  const m = trial.measurements;
  const evidence = trial.evidence;
  const output = trial.output;
  const error = trial.error;
  // keys in written (sorted) order, so the writer finds them sorted and need not sort
  return {
    error:
      error === null
        ? null
        : {
            message: error.message,
            occurred_at: error.occurred_at,
            traceback: error.traceback,
            type: error.type,
          },
    evidence:
      evidence === null
        ? null
        : {
            descriptors: Object.fromEntries(
              Object.entries(evidence.descriptors).map(([name, d]) => [
                name,
                {
                  data: d.data,
                  description: d.description,
                  format: d.format,
                  kind: d.kind,
                  metadata: d.metadata,
                  ref: mapRef(d.ref),
                },
              ]),
            ),
            metadata: evidence.metadata,
          },
    id: trial.id,
    measurements: {
      cache_creation_tokens: m.cache_creation_tokens,
      cache_read_tokens: m.cache_read_tokens,
      completion_tokens: m.completion_tokens,
      cost_usd: m.cost_usd === null ? null : new PyFloat(m.cost_usd),
      prompt_tokens: m.prompt_tokens,
      runtime_sec: m.runtime_sec === null ? null : new PyFloat(m.runtime_sec),
      total_tokens: m.total_tokens,
    },
    metadata: trial.metadata,
    output:
      output === null
        ? null
        : { metadata: output.metadata, output_text: output.output_text, response: output.response },
    status: trial.status,
    task_id: trial.task_id,
  };
}

/** Says whether the `index`-th record of `task_metric_values[taskId][key]` holds a float (undefined = unknown). */
export type TaskValueFloatLookup = (taskId: string, key: string, index: number) => boolean | undefined;

const INTEGER_KEYS: ReadonlySet<string> = new Set(AGGREGATE_INTEGER_KEYS);

/**
 * `summary.json` in wire form. Aggregate statistics are floats except `count` / `nan_count` (at any
 * depth); coverage and counts are ints; task values keep their JSON type: `isFloat` tells for values
 * computed in memory, a summary read from a file keeps its own literals; non-finite task values become
 * the `"NaN"` / `"Infinity"` / `"-Infinity"` tokens (spec §7.4).
 *
 * @example
 * pythonJson(summaryToWire(summary, tracker.lookup), { indent: 2 });
 */
export function summaryToWire(summary: Summary, isFloat?: TaskValueFloatLookup): WireObject {
  const fromText = rowSources.isFromText(summary);
  const values: Record<string, Record<string, WireValue[]>> = {};
  for (const [taskId, byKey] of Object.entries(summary.task_metric_values)) {
    const out: Record<string, WireValue[]> = {};
    for (const [key, records] of Object.entries(byKey)) {
      setOwn(
        out,
        key,
        records.map((record, index) => {
          const wire = encodeTaskValueRecord(record);
          let value: WireValue = wire.value;
          if (typeof value === 'number' && !fromText) {
            const float = isFloat?.(taskId, key, index);
            if (float === true || (float === undefined && !Number.isInteger(value)))
              value = new PyFloat(value);
          }
          return { trial_id: wire.trial_id, value_type: wire.value_type, value };
        }),
      );
    }
    setOwn(values, taskId, out);
  }
  return {
    scores: { scores: summary.scores.scores.map(aggregateToWire) },
    metric_coverage: summary.metric_coverage as unknown as WireObject,
    task_metric_values: values,
    task_count: summary.task_count,
    trial_count: summary.trial_count,
    score_count: summary.score_count,
    error_trial_ids: summary.error_trial_ids,
    error_count: summary.error_count,
  };
}

function aggregateToWire(aggregate: AggregateScore): WireObject {
  return boxFloats(aggregate as unknown as WireObject) as WireObject;
}

function boxFloats(value: WireValue, key?: string): WireValue {
  if (typeof value === 'number')
    return key !== undefined && INTEGER_KEYS.has(key) ? value : new PyFloat(value);
  if (value === null || typeof value !== 'object' || value instanceof PyFloat) return value;
  if (Array.isArray(value)) return (value as readonly WireValue[]).map((v) => boxFloats(v));
  const out: Record<string, WireValue> = {};
  for (const [k, v] of Object.entries(value as WireObject)) setOwn(out, k, boxFloats(v, k));
  return out;
}

/**
 * `metadata.json` in wire form (`duration_sec` is a float).
 *
 * @example
 * pythonJson(metadataToWire(meta), { indent: 2 });
 */
export function metadataToWire(meta: RunMetadata): WireObject {
  return {
    labels: meta.labels,
    target:
      meta.target === null
        ? null
        : {
            name: meta.target.name,
            kind: meta.target.kind,
            version: meta.target.version,
            config: meta.target.config,
          },
    started_at: meta.started_at,
    finished_at: meta.finished_at,
    duration_sec: meta.duration_sec === null ? null : new PyFloat(meta.duration_sec),
    sdk_version: meta.sdk_version,
  };
}
