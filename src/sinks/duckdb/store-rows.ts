import type { DuckDBConnection } from '@duckdb/node-api';
import type { OtlpSpan } from '../../evidence/otlp/otlp-types.js';
import type { JsonObject, JsonValue } from '../../model/json-value.js';
import { kindOfValueSchema, type OutputKind } from '../../model/output-spec.js';
import type { ScoreRecord } from '../../model/score-record.js';
import type { TaskSpec } from '../../model/task.js';
import type { NormalizedToolCall } from '../../model/trajectory-view.js';
import type { Trial } from '../../model/trial.js';
import { isTrialFailure } from '../../summary/is-trial-failure.js';
import { STORE_TABLES } from './store-tables.js';
import { TableBuffer } from './table-buffer.js';
import { spanRowCells } from './span-row-cells.js';
import { toJsonText } from './to-json-text.js';

/** A trial as the store needs it: everything but `id` may be missing (summaries pass only id/error). */
export type StoreTrial = Pick<Trial, 'id' | 'error'> & Partial<Trial>;

/**
 * Builds the rows of one run for every store table (from tasks, trials, scores, tool calls and spans)
 * and buffers them; `appendTo` appends everything buffered through the appender. Ordinals are given by
 * the caller, who knows the run's order.
 *
 * @example
 * const rows = new StoreRows('run-1');
 * rows.addTask(0, task);
 * rows.addScore(0, score, 1);
 * await rows.appendTo(connection);
 */
export class StoreRows {
  readonly #buffers = new Map<string, TableBuffer>();
  /** task id → `metric \0 output` → declared kind (the last spec of an id wins, as in the summary). */
  readonly #kinds = new Map<string, Map<string, OutputKind>>();

  constructor(readonly runId: string) {
    for (const t of STORE_TABLES) this.#buffers.set(t.name, new TableBuffer(t));
  }

  /** Rows buffered across all tables. */
  get rowCount(): number {
    let n = 0;
    for (const b of this.#buffers.values()) n += b.rowCount;
    return n;
  }

  /** Rows buffered in `score_outputs` + `scores` (the batch-size measure of the sinks). */
  get scoreRowCount(): number {
    return this.#buf('scores').rowCount + this.#buf('score_outputs').rowCount;
  }

  /** The `runs` row. */
  addRun(hasTaskSpecs: boolean, metadata: JsonObject | null, writtenAt: string): void {
    this.#buf('runs').push([this.runId, hasTaskSpecs, toJsonText(metadata ?? undefined), writtenAt]);
  }

  /**
   * A task and its declared metrics, outputs, views and view signals; `specJson: false` leaves the
   * task row's JSON columns (inputs, reference, metrics, views, metadata) NULL, for a summary only.
   */
  addTask(ordinal: number, task: TaskSpec, specJson = true): void {
    const run = this.runId;
    const json = (value: unknown): string | null => (specJson ? toJsonText(value as JsonValue) : null);
    this.#buf('tasks').push([
      run,
      ordinal,
      task.id,
      task.intent ?? null,
      json(task.inputs),
      json(task.reference),
      json(task.metrics),
      json(task.views),
      json(task.metadata),
    ]);
    const kinds = new Map<string, OutputKind>();
    const metrics = task.metrics ?? [];
    for (let m = 0; m < metrics.length; m++) {
      const metric = metrics[m]!;
      this.#buf('task_metrics').push([run, ordinal, task.id, m, metric.type]);
      for (let o = 0; o < metric.outputs.length; o++) {
        const out = metric.outputs[o]!;
        const kind = kindOfValueSchema(out.value_schema);
        const key = `${metric.type}\u0000${out.name}`;
        if (!kinds.has(key)) kinds.set(key, kind);
        this.#buf('task_outputs').push([
          run,
          ordinal,
          task.id,
          m,
          metric.type,
          o,
          out.name,
          out.value_schema,
          kind,
          out.required ?? true,
          out.description ?? null,
        ]);
      }
    }
    this.#kinds.set(task.id, kinds);
    const views = Object.entries(task.views ?? {});
    for (let v = 0; v < views.length; v++) {
      const [name, view] = views[v]!;
      this.#buf('task_views').push([run, ordinal, task.id, v, name, view.reducer]);
      for (let s = 0; s < view.signals.length; s++) {
        const signal = view.signals[s]!;
        this.#buf('task_view_signals').push([
          run,
          ordinal,
          task.id,
          v,
          name,
          s,
          signal.metric,
          signal.output,
          signal.weight ?? null,
        ]);
      }
    }
  }

  /** A trial row. */
  addTrial(ordinal: number, trial: StoreTrial): void {
    const m = trial.measurements;
    this.#buf('trials').push([
      this.runId,
      ordinal,
      trial.id,
      trial.task_id ?? null,
      trial.status ?? null,
      trial.output?.output_text ?? null,
      toJsonText(trial.output as unknown as JsonValue | undefined),
      toJsonText(trial.evidence as unknown as JsonValue | undefined),
      trial.error?.type ?? null,
      toJsonText(trial.error as unknown as JsonValue | undefined),
      m?.prompt_tokens ?? null,
      m?.completion_tokens ?? null,
      m?.total_tokens ?? null,
      m?.cache_creation_tokens ?? null,
      m?.cache_read_tokens ?? null,
      m?.runtime_sec ?? null,
      m?.cost_usd ?? null,
      toJsonText(trial.metadata),
    ]);
  }

  /**
   * A score row and one `score_outputs` row per output. `occurrence` is the 1-based position of this
   * score among the scores of its (task, trial, metric type) in score order.
   */
  addScore(ordinal: number, score: ScoreRecord, occurrence: number): void {
    const run = this.runId;
    this.#buf('scores').push([
      run,
      ordinal,
      score.id ?? null,
      score.task_id,
      score.trial_id,
      score.metric_type,
      occurrence,
      score.status,
      isTrialFailure(score),
      score.outputs.length,
      toJsonText(score.diagnostics as unknown as JsonValue),
      toJsonText(score.metadata),
    ]);
    const kinds = this.#kinds.get(score.task_id);
    const seen = new Set<string>();
    const outputs = this.#buf('score_outputs');
    for (let o = 0; o < score.outputs.length; o++) {
      const output = score.outputs[o]!;
      const first = !seen.has(output.name);
      seen.add(output.name);
      const v = classifyOutputValue(output.value);
      outputs.push([
        run,
        ordinal,
        score.task_id,
        score.trial_id,
        occurrence,
        score.metric_type,
        o,
        output.name,
        first,
        kinds?.get(`${score.metric_type}\u0000${output.name}`) ?? null,
        v.valueType,
        v.numValue,
        v.labelValue,
        v.jsonValue,
      ]);
    }
  }

  /** The normalised tool calls of a trial's trace, in order. */
  addToolCalls(trialOrdinal: number, trial: StoreTrial, calls: readonly NormalizedToolCall[]): void {
    const buf = this.#buf('tool_calls');
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i]!;
      buf.push([
        this.runId,
        trialOrdinal,
        trial.task_id ?? null,
        trial.id,
        i,
        c.id,
        c.name,
        toJsonText(c.arguments),
        toJsonText(c.result),
        c.isError,
        c.origin.kind,
        c.origin.kind === 'atif-step' ? c.origin.stepId : null,
        c.origin.kind === 'otlp-span' ? c.origin.spanId : null,
      ]);
    }
  }

  /** The OTLP spans of a trial's trace; times stay exact unsigned 64-bit nanoseconds. */
  addSpans(trialOrdinal: number, trial: StoreTrial, spans: readonly OtlpSpan[]): void {
    const buf = this.#buf('spans');
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      buf.push([this.runId, trialOrdinal, trial.task_id ?? null, trial.id, ...spanRowCells(s, i)]);
    }
  }

  /** Appends every buffered row (tables in schema order) and empties the buffers; returns the count. */
  async appendTo(connection: DuckDBConnection): Promise<number> {
    let n = 0;
    for (const b of this.#buffers.values()) n += await b.appendTo(connection);
    return n;
  }

  /** Drops every buffered row. */
  clear(): void {
    for (const b of this.#buffers.values()) b.clear();
  }

  #buf(name: string): TableBuffer {
    return this.#buffers.get(name)!;
  }
}

/** How `score_outputs` stores one metric output value (coerce-and-discard: the value as returned). */
export interface ClassifiedOutputValue {
  /** `number` (incl. NaN/±Infinity), `boolean`, `string`, `null`, `array` or `object`. */
  valueType: 'number' | 'boolean' | 'string' | 'null' | 'array' | 'object';
  /** The number; booleans as 1/0; else null. */
  numValue: number | null;
  /** The string of a `string` value, else null. */
  labelValue: string | null;
  /** JSON text of an `array`/`object` value, else null. */
  jsonValue: string | null;
}

/**
 * Classifies an output value for the `score_outputs` columns.
 *
 * @example
 * classifyOutputValue(true); // { valueType: 'boolean', numValue: 1, labelValue: null, jsonValue: null }
 */
export function classifyOutputValue(value: JsonValue): ClassifiedOutputValue {
  switch (typeof value) {
    case 'number':
      return { valueType: 'number', numValue: value, labelValue: null, jsonValue: null };
    case 'boolean':
      return { valueType: 'boolean', numValue: value ? 1 : 0, labelValue: null, jsonValue: null };
    case 'string':
      return { valueType: 'string', numValue: null, labelValue: value, jsonValue: null };
    default:
      if (value === null) return { valueType: 'null', numValue: null, labelValue: null, jsonValue: null };
      return {
        valueType: Array.isArray(value) ? 'array' : 'object',
        numValue: null,
        labelValue: null,
        jsonValue: toJsonText(value),
      };
  }
}
