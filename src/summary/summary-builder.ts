import { kindOfValueSchema } from '../model/output-spec.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, CoverageCounts, Summary } from '../model/summary.js';
import type { SemanticView, TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import { reduceViewSignals } from '../metrics/stats/reduce-view-signals.js';
import { aggregateRangeScore } from './aggregate-range-score.js';
import { compareCodePoints } from '../pycompat/compare-code-points.js';
import { isTrialFailure } from './is-trial-failure.js';
import { ColumnarTaskValues } from './columnar-task-values.js';
import { passAtKScores, type PassAtKTaskCounts } from './pass-at-k-scores.js';
import { TaskValueColumn } from './task-value-column.js';
import { TaskValueRecords } from './task-value-records.js';
import { TrialIdIndex } from './trial-id-index.js';
import { appendAll } from '../util/append-all.js';
import { setOwn } from '../util/set-own.js';

/** One (task, metric type, output name): the compact per-observation data of that output. */
interface Series {
  readonly name: string;
  /**
   * Finite numbers (not booleans) collected from completed/partial scores, in score order, while the
   * series has no task value column; once it has one, the column holds them, and `finiteValues` keeps
   * the finite numbers of its first `finiteScanned` records here (records are only appended).
   */
  readonly values: number[];
  finiteScanned: number;
  /** Non-failed scores that contain an output of this name. */
  scored: number;
  /** `Bucket.scoreCount` of the last score that had this name: only the first output of a name counts. */
  lastScore: number;
  /** Task value records (column-wise) when this output is a `task_metric_values` key, else null. */
  records: TaskValueRecords | null;
  /** pass@k counts over `records`: n = null/boolean/number values, c = true or numbers ≥ 1.0. */
  passN: number;
  passC: number;
  /** Semantic value per score of the bucket (NaN = unusable) when a view reads this output. */
  viewColumn: number[] | null;
}

/** One (task, metric type): the task's score records of that metric. */
interface Bucket {
  readonly metric: MetricTotals;
  readonly series: Map<string, Series>;
  /** The series that are task-value keys, in discovery (or declaration) order. */
  readonly keys: Series[];
  scoreCount: number;
  failed: number;
  /** Without task specs: trial indexes of trial failures so far, to backfill keys discovered later. */
  readonly failureTrials: number[];
  /** For a view's signal metric: the task-local trial index of each score, to pair occurrences. */
  viewTrials: number[] | null;
  readonly viewColumns: number[][];
}

/** One metric type across the run. */
interface MetricTotals {
  /** Declared output names (with task specs) or every name any score emitted (without). */
  readonly names: Set<string>;
  /** Without task specs: all scores of this type, and the failed ones. */
  total: number;
  failed: number;
}

interface TaskState {
  readonly id: string;
  /** The task's metric types in declaration (or first-seen) order; a handful per task. */
  readonly bucketList: Bucket[];
  readonly buckets: Map<string, Bucket>;
  /**
   * Trial ids of the task's scores, in first-seen order (the view's trial order): distinct once
   * compacted, as `summarize` does first.
   */
  readonly trials: TrialIdIndex;
  /** `trials.ids`: the one string kept per trial, shared by its records. */
  readonly trialIds: string[];
  readonly views: [string, SemanticView][];
}

const KEY_KINDS = new Set(['continuous', 'discrete', 'boolean', 'label']);
const PASS_AT_K_KINDS = new Set(['continuous', 'boolean']);

const NUMBER = TaskValueColumn.NUMBER;
const FLOAT = TaskValueColumn.FLOAT;
const MISSING = TaskValueColumn.MISSING;

/**
 * Says whether the integral number `score.outputs[index].value` was written as a float literal
 * (`1.0`), so the summary's task value keeps that JSON type; asked only for values that become task
 * value records.
 */
export type FloatLiteralLookup = (score: ScoreRecord, index: number) => boolean;

/**
 * Streaming builder of the SDK's `AgentEvalSummary.from_scores(scores, tasks, trials, extra_scores)`
 * (spec §7). Feed score records one at a time (any interleaving of tasks), optionally trials for the
 * error rollup, then call `finish()` once. Every statistic is computed in SDK score order — tasks in
 * task-list order (first-seen order without task specs), then the order scores were added within
 * each task — so shards and streams of the same run give identical floats. Per score it keeps only
 * finite numeric values, counters, and the task value records the summary itself contains.
 *
 * @example
 * const builder = new SummaryBuilder(tasks);
 * for (const score of scores) builder.addScore(score);
 * const summary = builder.finish();
 */
export class SummaryBuilder {
  private readonly withSpecs: boolean;
  private taskCount: number | null;
  private readonly tasks = new Map<string, TaskState>();
  private readonly metrics = new Map<string, MetricTotals>();
  /** `metricType \0 output` pairs declared continuous/boolean by some task. */
  private readonly passAtKPairs = new Map<string, [string, string]>();
  private readonly viewNames = new Set<string>();
  /** Trial ids of scores whose task is not in the task list (every other trial id is kept per task). */
  private readonly orphanTrialIds = new Set<string>();
  private readonly errorTrialIds = new Map<string, string[]>();
  private errorCount = 0;
  private scoreCount = 0;
  private finished = false;

  constructor(tasks: readonly TaskSpec[] | null) {
    this.withSpecs = tasks !== null;
    this.taskCount = tasks === null ? null : tasks.length;
    if (tasks === null) return;
    const specs = new Map<string, TaskSpec>();
    // A repeated task id keeps its first position; its last spec wins, as the SDK's dicts overwrite.
    for (const spec of tasks) specs.set(spec.id, spec);
    for (const spec of specs.values()) this.declareTask(spec);
  }

  /** Whether task `id` is known (declared, or seen in a score without task specs). */
  hasTask(id: string): boolean {
    return this.tasks.has(id);
  }

  /**
   * Add one more task spec, as if it ended the constructor's list (a builder made with task specs;
   * the id must be new): a live run learns its tasks as their trials are scored.
   */
  addTaskSpec(spec: TaskSpec): void {
    if (this.finished) throw new Error('SummaryBuilder.addTaskSpec called after finish()');
    if (!this.withSpecs) throw new Error('SummaryBuilder.addTaskSpec needs a builder made with task specs');
    if (this.tasks.has(spec.id))
      throw new Error(`SummaryBuilder.addTaskSpec: task '${spec.id}' is already known`);
    this.declareTask(spec);
    this.taskCount = (this.taskCount ?? 0) + 1;
  }

  /**
   * Add one score record (the SDK's `AgentEvalTaskScore`). `isFloatLiteral` tells the JSON type of
   * integral numeric values (default: int); it only affects how writers print task values.
   */
  addScore(score: ScoreRecord, isFloatLiteral?: FloatLiteralLookup): void {
    if (this.finished) throw new Error('SummaryBuilder.addScore called after finish()');
    this.scoreCount++;
    const trialId = score.trial_id;
    const taskId = score.task_id;
    let task = this.tasks.get(taskId);
    if (task === undefined) {
      // With task specs a score of an unknown task has no applicable output: it only counts.
      if (this.withSpecs) {
        this.orphanTrialIds.add(trialId);
        return;
      }
      task = newTaskState(taskId, []);
      this.tasks.set(taskId, task);
    }
    // Distinct trials per task: records refer to the task's one string per trial by index.
    const trialIndex = task.trials.add(trialId);
    const metricType = score.metric_type;
    let bucket = task.buckets.get(metricType);
    if (bucket === undefined) {
      if (this.withSpecs) return;
      bucket = this.newBucket(metricType);
      task.buckets.set(metricType, bucket);
      task.bucketList.push(bucket);
    }
    const seq = ++bucket.scoreCount;
    const metric = bucket.metric;
    metric.total++;
    const viewTrials = bucket.viewTrials;
    if (viewTrials !== null) {
      viewTrials.push(trialIndex);
      for (const column of bucket.viewColumns) column.push(NaN);
    }
    if (score.status === 'failed') {
      bucket.failed++;
      metric.failed++;
      if (isTrialFailure(score)) {
        const keys = bucket.keys;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as Series;
          if (key.records === null) continue;
          key.records.push(trialIndex, MISSING, 0);
          key.passN++;
        }
        if (!this.withSpecs) bucket.failureTrials.push(trialIndex);
      }
      return;
    }
    const outputs = score.outputs;
    for (let o = 0; o < outputs.length; o++) {
      const output = outputs[o];
      if (output === undefined) continue;
      const name = output.name;
      let series = bucket.series.get(name);
      if (series === undefined) {
        if (this.withSpecs) continue;
        series = newSeries(name);
        bucket.series.set(name, series);
        metric.names.add(name);
      }
      if (series.lastScore === seq) continue;
      series.lastScore = seq;
      series.scored++;
      const value = output.value;
      let semantic = NaN;
      let pass = 0; // pass@k: 0 = not counted, 1 = counted, 2 = counted and passing
      if (typeof value === 'number') {
        semantic = value;
        pass = value >= 1.0 ? 2 : 1;
      } else if (typeof value === 'boolean') {
        semantic = value ? 1.0 : 0.0;
        pass = value ? 2 : 1;
      }
      const column = series.viewColumn;
      if (column !== null) column[column.length - 1] = semantic;
      // objects, lists and null are no task value
      if (pass === 0 && typeof value !== 'string') continue;
      let records = series.records;
      if (records === null) {
        if (this.withSpecs) {
          // not a task-value key: only the output aggregate's values
          if (typeof value === 'number' && Number.isFinite(value)) series.values.push(value);
          continue;
        }
        // A key discovered now: the trial failures before it belong to it too, in order.
        records = new TaskValueRecords();
        for (const t of bucket.failureTrials) records.push(t, MISSING, 0);
        series.records = records;
        series.passN += bucket.failureTrials.length;
        bucket.keys.push(series);
      }
      if (typeof value === 'number') {
        const float =
          isFloatLiteral !== undefined && Number.isInteger(value) && isFloatLiteral(score, o)
            ? FLOAT
            : NUMBER;
        records.push(trialIndex, float, value);
      } else if (typeof value === 'boolean') {
        records.push(trialIndex, value ? TaskValueColumn.TRUE : TaskValueColumn.FALSE, 0);
      } else {
        records.pushLabel(trialIndex, value as string);
      }
      if (pass > 0) {
        series.passN++;
        if (pass === 2) series.passC++;
      }
    }
  }

  /** Add one trial for the error rollup (`error_trial_ids`, `error_count`). */
  addTrial(trial: Pick<Trial, 'id' | 'error'>): void {
    if (this.finished) throw new Error('SummaryBuilder.addTrial called after finish()');
    const error = trial.error;
    if (error === null || error === undefined) return;
    const ids = this.errorTrialIds.get(error.type);
    if (ids === undefined) this.errorTrialIds.set(error.type, [trial.id]);
    else ids.push(trial.id);
    this.errorCount++;
  }

  /** Build the summary; `extraScores` (runner aggregates) are appended unchanged. Call once. */
  finish(extraScores: readonly AggregateScore[] = []): Summary {
    this.finished = true;
    return this.summarize(extraScores, false);
  }

  /**
   * The summary of what was added so far (the same as `finish()` would give now), leaving the builder
   * open for more: the summary shares no mutable state with it (task value columns and error id lists
   * are copied), so later additions do not change a summary already handed out. With `taskValues:
   * false`, `task_metric_values` is left empty (`{}`): the rest of the summary for a reader that does
   * not show the per-trial records, without copying them.
   */
  snapshot(extraScores: readonly AggregateScore[] = [], options: { taskValues?: boolean } = {}): Summary {
    if (this.finished) throw new Error('SummaryBuilder.snapshot called after finish()');
    return this.summarize(extraScores, true, options.taskValues ?? true);
  }

  private summarize(extraScores: readonly AggregateScore[], copy: boolean, taskValues = true): Summary {
    const taskList = [...this.tasks.values()];
    for (const task of taskList) compactTrials(task);
    const aggregates: AggregateScore[] = [];
    const coverage: Record<string, Record<string, CoverageCounts>> = {};

    const bucketsByType = new Map<string, Bucket[]>();
    for (const task of taskList) {
      for (const [type, bucket] of task.buckets) {
        const list = bucketsByType.get(type);
        if (list === undefined) bucketsByType.set(type, [bucket]);
        else list.push(bucket);
      }
    }
    for (const type of [...this.metrics.keys()].sort(compareCodePoints)) {
      const metric = this.metrics.get(type) as MetricTotals;
      // A metric type with no output name (none declared / none emitted) has no coverage entry.
      if (metric.names.size === 0) continue;
      const buckets = bucketsByType.get(type) ?? [];
      const byName: Record<string, CoverageCounts> = {};
      for (const name of [...metric.names].sort(compareCodePoints)) {
        let total = this.withSpecs ? 0 : metric.total;
        let failed = this.withSpecs ? 0 : metric.failed;
        let scored = 0;
        let length = 0;
        const parts: Series[] = [];
        for (const bucket of buckets) {
          const series = bucket.series.get(name);
          if (series === undefined) continue;
          if (this.withSpecs) {
            total += bucket.scoreCount;
            failed += bucket.failed;
          }
          scored += series.scored;
          // a live summary keeps each series' finite values between calls; the last one reads the
          // columns directly, so no copy of them stays behind
          length += copy ? finiteValues(series).length : (series.records ?? series.values).length;
          parts.push(series);
        }
        const values = new Float64Array(length);
        let at = 0;
        for (const series of parts) {
          const records = series.records;
          if (copy || records === null) {
            const part = copy ? finiteValues(series) : series.values;
            // parts are per task, a handful of values each: a loop beats a call to `set` per part
            const n = part.length;
            for (let i = 0; i < n; i++) values[at++] = part[i] as number;
            continue;
          }
          for (let i = 0; i < records.length; i++) {
            const kind = records.kind(i);
            const v = records.value(i);
            if ((kind === NUMBER || kind === FLOAT) && Number.isFinite(v)) values[at++] = v;
          }
        }
        aggregates.push(
          aggregateRangeScore(`${type}.${name}`, at === length ? values : values.subarray(0, at), total),
        );
        setOwn(byName, name, { total, scored, failed, missing: Math.max(total - scored - failed, 0) });
      }
      setOwn(coverage, type, byName);
    }

    appendAll(aggregates, this.viewAggregates(taskList));

    const taskColumns: [string, [string, TaskValueColumn][]][] = [];
    for (const task of taskValues ? taskList : []) {
      const keys: [string, string, TaskValueColumn][] = [];
      const trialIds = copy ? task.trialIds.slice() : task.trialIds;
      for (const [type, bucket] of task.buckets) {
        for (const series of bucket.keys) {
          const records = series.records;
          // finished: the summary's column takes the records' arrays, nothing is copied
          const column = records === null ? new TaskValueColumn(trialIds) : records.column(trialIds, copy);
          keys.push([type, series.name, column]);
        }
      }
      keys.sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]));
      // a repeated `type.name` key (metric types may contain dots): the last one wins, in the first's place
      const entry = new Map<string, TaskValueColumn>();
      for (const [type, name, column] of keys) entry.set(`${type}.${name}`, column);
      taskColumns.push([task.id, [...entry]]);
    }
    // records are built on first access; summary writers read the columns
    const taskMetricValues = ColumnarTaskValues.create(taskColumns);

    const pairs = [...this.passAtKPairs.values()].sort(
      (a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]),
    );
    for (const [type, name] of pairs) {
      const declaring: PassAtKTaskCounts[] = [];
      for (const task of taskList) {
        const bucket = task.buckets.get(type);
        const series = bucket?.series.get(name);
        if (bucket === undefined || series === undefined || series.records === null) continue;
        // n and c were counted as the records were added
        declaring.push({ n: series.passN, c: series.passC, opportunities: bucket.scoreCount });
      }
      appendAll(aggregates, passAtKScores(`${type}.${name}`, declaring));
    }

    appendAll(aggregates, extraScores);

    const errorTrialIds: Record<string, string[]> = {};
    for (const [type, ids] of this.errorTrialIds) setOwn(errorTrialIds, type, copy ? ids.slice() : ids);
    return {
      scores: { scores: aggregates },
      metric_coverage: coverage,
      task_metric_values: taskMetricValues,
      task_count: this.taskCount ?? this.tasks.size,
      trial_count: this.distinctTrialCount(taskList),
      score_count: this.scoreCount,
      error_trial_ids: errorTrialIds,
      error_count: this.errorCount,
    };
  }

  /** Distinct trial ids over the run: the per-task lists merged (a trial id may occur in two tasks). */
  private distinctTrialCount(taskList: readonly TaskState[]): number {
    const ids = new Set(this.orphanTrialIds);
    for (const task of taskList) for (const id of task.trialIds) ids.add(id);
    return ids.size;
  }

  private declareTask(spec: TaskSpec): void {
    const views = Object.entries(spec.views ?? {});
    const task = newTaskState(spec.id, views);
    this.tasks.set(spec.id, task);
    for (const descriptor of spec.metrics) {
      let bucket = task.buckets.get(descriptor.type);
      if (bucket === undefined) {
        bucket = this.newBucket(descriptor.type);
        task.buckets.set(descriptor.type, bucket);
        task.bucketList.push(bucket);
      }
      for (const out of descriptor.outputs) {
        if (bucket.series.has(out.name)) continue;
        const series = newSeries(out.name);
        const kind = kindOfValueSchema(out.value_schema);
        if (KEY_KINDS.has(kind)) {
          series.records = new TaskValueRecords();
          bucket.keys.push(series);
        }
        if (PASS_AT_K_KINDS.has(kind)) {
          this.passAtKPairs.set(`${descriptor.type}\u0000${out.name}`, [descriptor.type, out.name]);
        }
        bucket.series.set(out.name, series);
        bucket.metric.names.add(out.name);
      }
    }
    for (const [viewName, view] of views) {
      this.viewNames.add(viewName);
      for (const signal of view.signals) {
        const bucket = task.buckets.get(signal.metric);
        if (bucket === undefined) continue;
        bucket.viewTrials ??= [];
        const series = bucket.series.get(signal.output);
        if (series === undefined || series.viewColumn !== null) continue;
        series.viewColumn = [];
        bucket.viewColumns.push(series.viewColumn);
      }
    }
  }

  private newBucket(metricType: string): Bucket {
    let metric = this.metrics.get(metricType);
    if (metric === undefined) {
      metric = { names: new Set(), total: 0, failed: 0 };
      this.metrics.set(metricType, metric);
    }
    return {
      metric,
      series: new Map(),
      keys: [],
      scoreCount: 0,
      failed: 0,
      failureTrials: [],
      viewTrials: null,
      viewColumns: [],
    };
  }

  /** `view.<name>` rows (spec §7.5): opportunities paired by occurrence, tasks then trials in order. */
  private viewAggregates(taskList: readonly TaskState[]): AggregateScore[] {
    const values = new Map<string, number[]>();
    const totals = new Map<string, number>();
    for (const name of this.viewNames) {
      values.set(name, []);
      totals.set(name, 0);
    }
    for (const task of taskList) {
      const trialCount = task.views.length === 0 ? 0 : task.trialIds.length;
      if (trialCount === 0) continue;
      // Per signal bucket, its score positions grouped by trial (a stable counting sort), built only
      // for buckets that do not have exactly one score per trial in trial order.
      const grouped = new Map<Bucket, { start: Int32Array; order: Int32Array } | null>();
      for (const bucket of task.bucketList) {
        const trials = bucket.viewTrials;
        if (trials === null) continue;
        grouped.set(bucket, isOneEachInOrder(trials, trialCount) ? null : groupByTrial(trials, trialCount));
      }
      for (const [viewName, view] of task.views) {
        const signals = view.signals.map((signal) => {
          const bucket = task.buckets.get(signal.metric);
          const positions = bucket === undefined ? undefined : grouped.get(bucket);
          const column = bucket?.series.get(signal.output)?.viewColumn ?? null;
          return { positions, column: positions === undefined ? null : column };
        });
        const weights = view.signals.map((s) => s.weight);
        const out = values.get(viewName) as number[];
        let opportunities = 0;
        const signalValues = new Array<number>(signals.length).fill(NaN);
        for (let t = 0; t < trialCount; t++) {
          let occurrences = 1;
          for (const { positions } of signals) {
            if (positions === undefined) continue;
            const n =
              positions === null ? 1 : (positions.start[t + 1] as number) - (positions.start[t] as number);
            if (n > occurrences) occurrences = n;
          }
          opportunities += occurrences;
          for (let i = 0; i < occurrences; i++) {
            for (let j = 0; j < signals.length; j++) {
              const { positions, column } = signals[j] as (typeof signals)[number];
              let v = NaN;
              if (positions === null) {
                if (i === 0 && column !== null) v = column[t] as number;
              } else if (positions !== undefined && column !== null) {
                const at = (positions.start[t] as number) + i;
                if (at < (positions.start[t + 1] as number))
                  v = column[positions.order[at] as number] as number;
              }
              signalValues[j] = v;
            }
            const reduced = reduceViewSignals(view.reducer, signalValues, weights);
            if (reduced !== null) out.push(reduced);
          }
        }
        totals.set(viewName, (totals.get(viewName) as number) + opportunities);
      }
    }
    return [...this.viewNames]
      .sort(compareCodePoints)
      .map((name) =>
        aggregateRangeScore(`view.${name}`, values.get(name) as number[], totals.get(name) as number),
      );
  }
}

/** A signal bucket's score positions grouped by trial (stable counting sort of `trials`). */
function groupByTrial(
  trials: readonly number[],
  trialCount: number,
): { start: Int32Array; order: Int32Array } {
  const start = new Int32Array(trialCount + 1);
  for (const t of trials) start[t + 1] = (start[t + 1] as number) + 1;
  for (let t = 0; t < trialCount; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
  const next = start.slice(0, trialCount);
  const order = new Int32Array(trials.length);
  for (let i = 0; i < trials.length; i++) {
    const t = trials[i] as number;
    order[next[t] as number] = i;
    next[t] = (next[t] as number) + 1;
  }
  return { start, order };
}

/** One score per trial, in trial order: `trials` is 0, 1, 2, …, trialCount − 1. */
function isOneEachInOrder(trials: readonly number[], trialCount: number): boolean {
  if (trials.length !== trialCount) return false;
  for (let i = 0; i < trialCount; i++) if (trials[i] !== i) return false;
  return true;
}

/** Folds the task's repeated trial ids (`TrialIdIndex.compact`) in every trial position it handed out. */
function compactTrials(task: TaskState): void {
  const remap = task.trials.compact();
  if (remap === null) return;
  const each = (list: number[]): void => {
    for (let i = 0; i < list.length; i++) list[i] = remap[list[i] as number] as number;
  };
  for (const bucket of task.bucketList) {
    each(bucket.failureTrials);
    if (bucket.viewTrials !== null) each(bucket.viewTrials);
    for (const series of bucket.keys) series.records?.remapTrials(remap);
  }
}

function newTaskState(id: string, views: [string, SemanticView][]): TaskState {
  const trials = new TrialIdIndex();
  return { id, bucketList: [], buckets: new Map(), trials, trialIds: trials.ids, views };
}

/** The finite numbers of a series' output aggregate, in score order. */
function finiteValues(series: Series): ArrayLike<number> {
  const column = series.records;
  const out = series.values;
  if (column === null) return out;
  // the records added since the last call (a live summary asks again and again)
  for (let i = series.finiteScanned; i < column.length; i++) {
    const kind = column.kind(i);
    if (kind !== NUMBER && kind !== FLOAT) continue;
    const v = column.value(i);
    if (Number.isFinite(v)) out.push(v);
  }
  series.finiteScanned = column.length;
  return out;
}

function newSeries(name: string): Series {
  return {
    name,
    values: [],
    finiteScanned: 0,
    scored: 0,
    lastScore: 0,
    records: null,
    passN: 0,
    passC: 0,
    viewColumn: null,
  };
}
