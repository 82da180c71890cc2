import type { JsonValue } from '../model/json-value.js';
import { kindOfValueSchema } from '../model/output-spec.js';
import type { OutputKind } from '../model/output-spec.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, CoverageCounts } from '../model/summary.js';
import { MEASUREMENT_KEYS } from '../model/trial.js';
import { boxNonFinite } from './box-non-finite.js';
import { compactJson } from './compact-json.js';
import { cutText } from './cut-text.js';
import type { ReportBundle } from './report-bundle.js';
import type {
  CompactTrajectory,
  ReportAggregate,
  ReportData,
  ReportInterval,
  ReportOutput,
  ReportRun,
  ReportScoreDetail,
  ReportTaskDetail,
  ReportTrialDetail,
} from './report-data.js';
import { clusterTInterval95 } from './stats/cluster-t-interval-95.js';
import { histogramBins } from './stats/histogram-bins.js';
import { tInterval95 } from './stats/t-interval-95.js';

/** Everything the HTML writer embeds: the core data, one detail per task and one per trial row. */
export interface ReportModel {
  data: ReportData;
  taskDetails: ReportTaskDetail[];
  trialDetails: ReportTrialDetail[];
}

/** Inputs of {@link buildReportModel} besides the bundle. */
export interface ReportModelOptions {
  /** Longest string kept in details (default 4000). */
  maxTextChars?: number;
  /** Trial details per lazily parsed chunk (default 500). */
  chunkSize?: number;
  /** Compact trajectory (or a note saying why there is none) by index into `bundle.trials`. */
  trajectories?: ReadonlyMap<number, CompactTrajectory | string>;
  /** Notes to show under the header (e.g. that trajectories were left out). */
  notes?: readonly string[];
}

/** Fewest values (or tasks, for the clustered interval) for which a 95% interval is shown. */
const MIN_INTERVAL_N = 3;

const STATUS_CHAR: Record<string, string> = { completed: 'c', partial: 'p', failed: 'f' };

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** `[value, count, value, count, …]` of consecutive equal values. */
function runLengths(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length;) {
    let j = i + 1;
    while (j < values.length && values[j] === values[i]) j += 1;
    out.push(values[i] as number, j - i);
    i = j;
  }
  return out;
}

/** Six significant digits (plot positions only; aggregates keep full precision). */
function round6(x: number): number {
  return Number.parseFloat(x.toPrecision(6));
}

/** An empty object, empty array, null or undefined (left out of the embed). */
function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function runOf(bundle: ReportBundle): ReportRun {
  const meta = (bundle.metadata ?? {}) as Record<string, unknown>;
  const labels = isObj(meta.labels)
    ? Object.entries(meta.labels)
        .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])
        .sort((a, b) => compareStrings(a[0], b[0]))
    : [];
  const target = isObj(meta.target)
    ? {
        name: strOrNull(meta.target.name),
        kind: strOrNull(meta.target.kind),
        version: strOrNull(meta.target.version),
      }
    : null;
  return {
    id: bundle.runId,
    target,
    labels,
    startedAt: strOrNull(meta.started_at),
    finishedAt: strOrNull(meta.finished_at),
    durationSec: numOrNull(meta.duration_sec),
    sdkVersion: strOrNull(meta.sdk_version) ?? strOrNull(meta.evalstream_version),
  };
}

/** A metric output value as the columnar embed stores it (see `ReportData.values`). */
function columnValue(value: JsonValue | undefined): JsonValue {
  if (value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : boxNonFinite(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return cutText(value, 200);
  return { $o: value === null ? 'null' : Array.isArray(value) ? 'list' : 'object' };
}

/** Numeric projection of a task-value record: numbers (and, when `withBooleans`, booleans as 0/1). */
function numericOf(value: unknown, withBooleans: boolean): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (withBooleans && typeof value === 'boolean') return value ? 1 : 0;
  return null;
}

interface Classified {
  kind: ReportAggregate['kind'];
  key: string | null;
  k: number | null;
}

function classify(row: AggregateScore, outputKeys: ReadonlySet<string>): Classified {
  if (outputKeys.has(row.name)) return { kind: 'output', key: row.name, k: null };
  const pass = /^(.*)\.pass@(\d+)$/.exec(row.name);
  if (pass && outputKeys.has(pass[1] as string)) {
    return { kind: 'pass@k', key: pass[1] as string, k: Number(pass[2]) };
  }
  if (row.name.startsWith('view.')) return { kind: 'view', key: null, k: null };
  if (row.score_type === 'scalar') return { kind: 'scalar', key: null, k: null };
  return { kind: 'other', key: null, k: null };
}

function clipToUnit(interval: ReportInterval, row: AggregateScore): ReportInterval {
  if (row.min === null || row.max === null || row.min < 0 || row.max > 1) return interval;
  if (interval.lo >= 0 && interval.hi <= 1) return interval;
  return {
    lo: Math.max(0, interval.lo),
    hi: Math.min(1, interval.hi),
    method: `${interval.method}; clipped to [0, 1]`,
  };
}

/**
 * Builds the report's data from a loaded run: header facts and counts, every aggregate row classified
 * (output / view / pass@k / scalar) with its coverage and a 95% interval, per-output plot series
 * (histogram, value counts, per-task means, pass@k curve), columnar per-trial data for the task
 * explorer, and per-task / per-trial details (long strings cut to `maxTextChars`).
 *
 * Trial rows are `bundle.trials` in order, followed by one row per (task, trial id) that only appears
 * in scores. The i-th score of a (task, trial id, metric type) attaches to the i-th trial with that
 * (task, trial id). Plot values come from `summary.task_metric_values` (the SDK's per-task values).
 *
 * @example
 * const { data } = buildReportModel(bundle);
 * data.aggregates.find((a) => a.name === 'harbor_reward.reward')?.mean; // 0.5
 */
export function buildReportModel(bundle: ReportBundle, options: ReportModelOptions = {}): ReportModel {
  const maxText = options.maxTextChars ?? 4000;
  const limits = { maxText };
  const chunkSize = options.chunkSize ?? 500;
  const { summary } = bundle;

  // Tasks: the bundle's tasks, then ids seen only in trials or scores.
  const taskIndex = new Map<string, number>();
  const taskIds: string[] = [];
  const addTask = (id: string): number => {
    let index = taskIndex.get(id);
    if (index === undefined) {
      index = taskIds.length;
      taskIndex.set(id, index);
      taskIds.push(id);
    }
    return index;
  };
  for (const task of bundle.tasks) addTask(task.id);

  // Trial rows.
  const rowTask: number[] = [];
  const rowId: string[] = [];
  const rowStatus: string[] = [];
  const rowError: number[] = [];
  const rowTrial: number[] = []; // index into bundle.trials, or -1
  const errorTypes: string[] = [];
  const errorTypeIndex = new Map<string, number>();
  // Trial rows by task id, then trial id (ids need not be unique: a list per pair).
  const rowsByKey = new Map<string, Map<string, number[]>>();
  const rowsOf = (taskId: string, trialId: string, create: boolean): number[] | undefined => {
    let byTrial = rowsByKey.get(taskId);
    if (!byTrial) {
      if (!create) return undefined;
      rowsByKey.set(taskId, (byTrial = new Map()));
    }
    let rows = byTrial.get(trialId);
    if (!rows && create) byTrial.set(trialId, (rows = []));
    return rows;
  };
  const trialStatus = { completed: 0, partial: 0, failed: 0 };
  bundle.trials.forEach((trial, i) => {
    const row = rowId.length;
    rowTask.push(addTask(trial.task_id));
    rowId.push(trial.id);
    rowStatus.push(STATUS_CHAR[trial.status] ?? '?');
    if (trial.status in trialStatus) trialStatus[trial.status] += 1;
    let error = -1;
    if (trial.error) {
      error = errorTypeIndex.get(trial.error.type) ?? -1;
      if (error < 0) {
        error = errorTypes.length;
        errorTypes.push(trial.error.type);
        errorTypeIndex.set(trial.error.type, error);
      }
    }
    rowError.push(error);
    rowTrial.push(i);
    (rowsOf(trial.task_id, trial.id, true) as number[]).push(row);
  });

  // Scores → rows: the i-th score of a (task, trial id, metric type) goes to the i-th trial record with
  // that (task, trial id); scores beyond the records stay on the last record; scores of unknown trials
  // get a row of their own (status '?').
  const typeSet = new Set<string>();
  for (const task of bundle.tasks) for (const m of task.metrics) typeSet.add(m.type);
  for (const score of bundle.scores) typeSet.add(score.metric_type);
  const metricTypes = [...typeSet].sort(compareStrings);
  const typeIndex = new Map(metricTypes.map((t, i) => [t, i]));
  const rowScores: number[][] = rowId.map(() => []);
  const firstScoreOf: Int32Array[] = metricTypes.map(() => new Int32Array(rowId.length + 16).fill(-1));
  const scoreStatus = { completed: 0, partial: 0, failed: 0 };
  const setFirst = (t: number, row: number, s: number): void => {
    let column = firstScoreOf[t] as Int32Array;
    if (row >= column.length) {
      const grown = new Int32Array(Math.max(row + 1, column.length * 2)).fill(-1);
      grown.set(column);
      firstScoreOf[t] = column = grown;
    }
    if (column[row] === -1) column[row] = s;
  };
  const firstOf = (t: number, row: number): number => {
    const column = firstScoreOf[t] as Int32Array;
    return row < column.length ? (column[row] as number) : -1;
  };
  bundle.scores.forEach((score, s) => {
    if (score.status in scoreStatus) scoreStatus[score.status] += 1;
    const t = typeIndex.get(score.metric_type) as number;
    const rows = rowsOf(score.task_id, score.trial_id, false);
    let row = -1;
    if (rows) {
      for (const r of rows) {
        if (firstOf(t, r) === -1) {
          row = r;
          break;
        }
      }
      if (row === -1 && rowTrial[rows[rows.length - 1] as number] !== -1)
        row = rows[rows.length - 1] as number;
    }
    if (row === -1) {
      row = rowId.length;
      rowTask.push(addTask(score.task_id));
      rowId.push(score.trial_id);
      rowStatus.push('?');
      rowError.push(-1);
      rowTrial.push(-1);
      rowScores.push([]);
      (rows ?? (rowsOf(score.task_id, score.trial_id, true) as number[])).push(row);
    }
    (rowScores[row] as number[]).push(s);
    setFirst(t, row, s);
  });
  const rowCount = rowId.length;
  const firstScore = metricTypes.map((_, t) => {
    const column = new Int32Array(rowCount);
    for (let row = 0; row < rowCount; row += 1) column[row] = firstOf(t, row);
    return column;
  });
  const scoreStatusColumns = firstScore.map((column) => {
    const chars = new Array<string>(rowCount);
    for (let row = 0; row < rowCount; row += 1) {
      const s = column[row] as number;
      chars[row] = s < 0 ? '-' : (STATUS_CHAR[(bundle.scores[s] as ScoreRecord).status] ?? '-');
    }
    return chars.join('');
  });

  // Outputs: declared by tasks, present in coverage, or (without task specs) emitted by scores.
  const kinds = new Map<string, OutputKind>();
  const outputPairs = new Map<string, [string, string]>();
  const addOutput = (type: string, name: string): void => {
    const key = `${type}.${name}`;
    if (!outputPairs.has(key)) outputPairs.set(key, [type, name]);
  };
  for (const task of bundle.tasks) {
    for (const metric of task.metrics) {
      for (const out of metric.outputs) {
        addOutput(metric.type, out.name);
        const key = `${metric.type}.${out.name}`;
        if (!kinds.has(key)) kinds.set(key, kindOfValueSchema(out.value_schema));
      }
    }
  }
  for (const [type, outputs] of Object.entries(summary.metric_coverage)) {
    for (const name of Object.keys(outputs)) addOutput(type, name);
  }
  if (bundle.tasks.length === 0) {
    for (const score of bundle.scores)
      for (const out of score.outputs) addOutput(score.metric_type, out.name);
  }
  const outputList = [...outputPairs.entries()].sort(
    (a, b) => compareStrings(a[1][0], b[1][0]) || compareStrings(a[1][1], b[1][1]),
  );
  const outputKeys = new Set(outputPairs.keys());

  // Value columns.
  const values: JsonValue[][] = outputList.map(([, [type, name]]) => {
    const column = firstScore[typeIndex.get(type) as number] as Int32Array;
    const out = new Array<JsonValue>(rowCount);
    for (let row = 0; row < rowCount; row += 1) {
      const s = column[row] as number;
      out[row] =
        s < 0
          ? null
          : columnValue((bundle.scores[s] as ScoreRecord).outputs.find((o) => o.name === name)?.value);
    }
    return out;
  });

  // Per-task values of each output (from the summary; from the columns when the summary has none).
  const taskValues = (key: string, outputIdx: number): Map<number, unknown[]> => {
    const byTask = new Map<number, unknown[]>();
    let found = false;
    for (const [taskId, byKey] of Object.entries(summary.task_metric_values)) {
      const records = byKey[key];
      if (!records) continue;
      found = true;
      const list: unknown[] = [];
      for (const record of records) if (record.value_type !== 'missing') list.push(record.value);
      byTask.set(addTaskKnown(taskId), list);
    }
    if (found) return byTask;
    const column = values[outputIdx] as JsonValue[];
    for (let row = 0; row < rowCount; row += 1) {
      const v = column[row];
      if (v === null || v === undefined || isObj(v)) continue;
      const task = rowTask[row] as number;
      const list = byTask.get(task);
      if (list) list.push(v);
      else byTask.set(task, [v]);
    }
    return byTask;
  };
  function addTaskKnown(id: string): number {
    return taskIndex.get(id) ?? addTask(id);
  }

  const aggregateRows = summary.scores.scores;
  const outputs: ReportOutput[] = outputList.map(([key, [metric, output]], idx) => {
    const kind: OutputKind | 'unknown' = kinds.get(key) ?? 'unknown';
    const byTask = taskValues(key, idx);
    const isBoolean = kind === 'boolean';
    const all: number[] = [];
    const means: [number, number][] = [];
    const counts = new Map<string, number>();
    for (const [task, list] of byTask) {
      let sum = 0;
      let n = 0;
      for (const v of list) {
        const plain = numericOf(v, false);
        if (plain !== null) all.push(plain);
        const projected = numericOf(v, true);
        if (projected !== null) {
          sum += projected;
          n += 1;
        }
        if (typeof v === 'string' || typeof v === 'boolean') {
          const label = String(v);
          counts.set(label, (counts.get(label) ?? 0) + 1);
        }
      }
      if (n > 0) means.push([task, sum / n]);
    }
    means.sort((a, b) => a[1] - b[1] || compareStrings(taskIds[a[0]] as string, taskIds[b[0]] as string));
    let valueCounts: [string, number][] | null = null;
    if (counts.size > 0 && (kind === 'label' || isBoolean || all.length === 0)) {
      const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));
      valueCounts = sorted.slice(0, 12);
      const rest = sorted.slice(12).reduce((acc, [, c]) => acc + c, 0);
      if (rest > 0) valueCounts.push(['(other)', rest]);
    }
    const passAtK = aggregateRows
      .map((row) => ({ row, c: classify(row, outputKeys) }))
      .filter(({ c }) => c.kind === 'pass@k' && c.key === key)
      .map(({ row, c }) => ({
        k: c.k as number,
        mean: row.mean,
        count: row.count ?? 0,
        nanCount: row.nan_count,
      }))
      .sort((a, b) => a.k - b.k);
    return {
      key,
      metric,
      output,
      kind,
      scoreLike: kind === 'continuous' || kind === 'boolean' || passAtK.length > 0,
      coverage: summary.metric_coverage[metric]?.[output] ?? null,
      histogram: kind === 'label' || isBoolean ? null : histogramBins(all),
      valueCounts,
      taskMeans: { task: means.map((m) => m[0]), mean: means.map((m) => round6(m[1])) },
      passAtK,
    };
  });
  const outputByKey = new Map(outputs.map((o, i) => [o.key, i]));

  const aggregates: ReportAggregate[] = aggregateRows.map((row) => {
    const c = classify(row, outputKeys);
    let coverage: CoverageCounts | null = null;
    let ci: ReportInterval | null = null;
    if (c.kind === 'output' && c.key !== null) {
      const out = outputs[outputByKey.get(c.key) as number] as ReportOutput;
      coverage = out.coverage;
      const groups = [...taskValues(c.key, outputByKey.get(c.key) as number).values()].map((list) =>
        list.map((v) => numericOf(v, false)).filter((v): v is number => v !== null),
      );
      const n = groups.reduce((a, g) => a + g.length, 0);
      const nonEmpty = groups.filter((g) => g.length > 0).length;
      const interval = n === row.count ? clusterTInterval95(groups) : null;
      if (interval && interval.method === 'cluster' && nonEmpty >= MIN_INTERVAL_N) {
        ci = {
          lo: interval.lo,
          hi: interval.hi,
          method: `Student-t, standard error clustered by task (CR1), ${nonEmpty} tasks, df=${nonEmpty - 1}`,
        };
      } else if (interval && interval.method === 'iid' && n >= MIN_INTERVAL_N) {
        ci = {
          lo: interval.lo,
          hi: interval.hi,
          method: `Student-t over ${n} repeats of one task, df=${n - 1}`,
        };
      }
    } else if (c.kind === 'pass@k' || c.kind === 'view') {
      const n = row.count ?? 0;
      const interval = n >= MIN_INTERVAL_N ? tInterval95(row.mean, row.sample_std_dev, n) : null;
      if (interval) {
        const over =
          c.kind === 'pass@k' ? `${n} per-task estimates` : `${n} opportunities (treated as independent)`;
        ci = { ...interval, method: `Student-t over ${over}, df=${n - 1}` };
      }
    }
    if (ci) ci = clipToUnit(ci, row);
    return {
      name: row.name,
      kind: c.kind,
      key: c.key,
      k: c.k,
      mean: numOrNull(row.mean),
      count: row.count,
      nanCount: row.nan_count,
      min: numOrNull(row.min),
      max: numOrNull(row.max),
      stdDev: numOrNull(row.std_dev),
      sampleStdDev: numOrNull(row.sample_std_dev),
      median: numOrNull(row.median),
      value: row.score_type === 'scalar' ? numOrNull(row.value) : null,
      coverage,
      ci,
    };
  });

  // Declared-output sets per task (spec §7.1 applicability), deduplicated.
  const declSets: number[][] = [];
  const declIndex = new Map<string, number>();
  const specById = new Map(bundle.tasks.map((t) => [t.id, t]));
  const taskDecl = taskIds.map((id) => {
    const task = specById.get(id);
    if (!task) return bundle.tasks.length === 0 ? -1 : declSetOf([]);
    const set: number[] = [];
    for (const m of task.metrics) {
      for (const o of m.outputs) {
        const i = outputByKey.get(`${m.type}.${o.name}`);
        if (i !== undefined && !set.includes(i)) set.push(i);
      }
    }
    return declSetOf(set.sort((a, b) => a - b));
  });
  function declSetOf(set: number[]): number {
    const key = set.join(',');
    let index = declIndex.get(key);
    if (index === undefined) {
      index = declSets.length;
      declSets.push(set);
      declIndex.set(key, index);
    }
    return index;
  }

  const taskTrialCount = new Array<number>(taskIds.length).fill(0);
  for (const task of rowTask) taskTrialCount[task] = (taskTrialCount[task] ?? 0) + 1;

  const errorsByType = Object.entries(summary.error_trial_ids)
    .map(([type, ids]): [string, number] => [type, ids.length])
    .sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));

  const data: ReportData = {
    version: 1,
    run: runOf(bundle),
    counts: {
      tasks: summary.task_count,
      trials: summary.trial_count,
      scores: summary.score_count,
      errors: summary.error_count,
      errorsByType,
      trialStatus,
      scoreStatus,
    },
    aggregates,
    outputs,
    metricTypes,
    tasks: { id: taskIds, trialCount: taskTrialCount, decl: taskDecl },
    declSets,
    measurementKeys: [...MEASUREMENT_KEYS],
    trials: {
      taskRuns: runLengths(rowTask),
      id: rowId,
      status: rowStatus.join(''),
      errorRows: rowError.flatMap((e, row) => (e >= 0 ? [row] : [])),
      errorOfRow: rowError.filter((e) => e >= 0),
      errorTypes,
    },
    scoreStatus: scoreStatusColumns,
    values,
    detail: { chunkSize, chunks: Math.ceil(rowCount / chunkSize) },
    notes: [...(options.notes ?? [])],
  };

  const taskDetails: ReportTaskDetail[] = taskIds.map((id) => {
    const task = specById.get(id);
    const detail: ReportTaskDetail = {};
    if (!task) return detail;
    if (task.intent) detail.intent = cutText(task.intent, maxText);
    if (!isEmpty(task.inputs)) detail.inputs = compactJson(task.inputs, limits);
    if (!isEmpty(task.reference)) detail.reference = compactJson(task.reference, limits);
    if (task.metrics.length > 0) {
      detail.metrics = task.metrics.map((m): [string, [string, string, boolean][]] => [
        m.type,
        m.outputs.map((o): [string, string, boolean] => [o.name, o.value_schema, o.required !== false]),
      ]);
    }
    const views = Object.entries(task.views);
    if (views.length > 0) {
      detail.views = views.map(([name, view]): [string, string, string[]] => [
        name,
        view.reducer,
        view.signals.map((s) => `${s.metric}.${s.output}${s.weight === null ? '' : ` ×${s.weight}`}`),
      ]);
    }
    if (!isEmpty(task.metadata)) detail.metadata = compactJson(task.metadata, limits);
    return detail;
  });

  // A score the page can rebuild from the columns: nothing beyond status and scalar output values.
  const inColumns = (score: ScoreRecord): boolean => {
    if (score.diagnostics.length > 0) return false;
    for (const k of Object.keys(score.metadata))
      if (k !== 'trial_metadata' && k !== 'row_index') return false;
    const seen = new Set<string>();
    for (const o of score.outputs) {
      if (seen.has(o.name) || !outputKeys.has(`${score.metric_type}.${o.name}`)) return false;
      seen.add(o.name);
      const v = o.value;
      if (!(typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v.length <= 200)))
        return false;
    }
    return true;
  };

  const trialDetails: ReportTrialDetail[] = new Array<ReportTrialDetail>(rowCount);
  for (let row = 0; row < rowCount; row += 1) {
    const t = rowTrial[row] as number;
    const trial = t >= 0 ? bundle.trials[t] : undefined;
    const detail: ReportTrialDetail = {
      scores: (rowScores[row] as number[]).map((s) => {
        const score = bundle.scores[s] as ScoreRecord;
        const t = typeIndex.get(score.metric_type) as number;
        if ((firstScore[t] as Int32Array)[row] === s && inColumns(score)) return t;
        const out: ReportScoreDetail = {
          type: score.metric_type,
          status: score.status,
          outputs: score.outputs.map((o): [string, JsonValue] => [o.name, compactJson(o.value, limits)]),
        };
        if (score.diagnostics.length > 0) {
          out.diagnostics = score.diagnostics.map((d) => ({
            severity: d.severity,
            message: cutText(d.message, maxText),
            source: d.source,
            ...(isEmpty(d.details) ? {} : { details: compactJson(d.details, limits) }),
          }));
        }
        const metadata = Object.keys(score.metadata).filter(
          (k) => k !== 'trial_metadata' && k !== 'row_index',
        );
        if (metadata.length > 0) {
          out.metadata = compactJson(Object.fromEntries(metadata.map((k) => [k, score.metadata[k]])), limits);
        }
        return out;
      }),
    };
    if (trial) {
      if (trial.output) {
        const output: NonNullable<ReportTrialDetail['output']> = {};
        if (trial.output.output_text !== null) output.text = cutText(trial.output.output_text, maxText);
        if (trial.output.response !== null && trial.output.response !== undefined) {
          output.response = compactJson(trial.output.response, limits);
        }
        if (!isEmpty(trial.output.metadata)) output.metadata = compactJson(trial.output.metadata, limits);
        detail.output = output;
      }
      if (trial.error) {
        detail.error = {
          type: trial.error.type,
          message: trial.error.message === null ? null : cutText(trial.error.message, maxText),
          traceback: trial.error.traceback === null ? null : cutText(trial.error.traceback, maxText),
          occurredAt: trial.error.occurred_at,
        };
      }
      const measurements = MEASUREMENT_KEYS.map((k) => numOrNull(trial.measurements[k]));
      if (measurements.some((m) => m !== null)) detail.measurements = measurements;
      if (!isEmpty(trial.metadata)) detail.metadata = compactJson(trial.metadata, limits);
      const descriptors = trial.evidence ? Object.entries(trial.evidence.descriptors) : [];
      if (descriptors.length > 0) {
        detail.evidence = descriptors.map(([name, d]): [string, string, string | null, string | null] => [
          name,
          d.kind,
          d.format,
          d.ref,
        ]);
      }
      const trajectory = options.trajectories?.get(t);
      if (typeof trajectory === 'string') detail.trajectoryNote = trajectory;
      else if (trajectory) detail.trajectory = trajectory;
    }
    trialDetails[row] = detail;
  }

  return { data, taskDetails, trialDetails };
}
