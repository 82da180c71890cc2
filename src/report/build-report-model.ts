import type { RunMetadata } from '../bundle/run-metadata.js';
import type { JsonObject } from '../model/json-value.js';
import { kindOfValueSchema, type OutputKind } from '../model/output-spec.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import { MEASUREMENT_KEYS } from '../model/trial.js';
import { studentTIntervalFromMoments } from '../stats/student-t-interval-from-moments.js';
import { ColumnarTaskValues } from '../summary/columnar-task-values.js';
import { TaskValueColumn } from '../summary/task-value-column.js';
import { compactJson, cutText, isEmpty, isObj, numOrNull, strOrNull } from './compact-json.js';
import type {
  ReportAggregate,
  ReportData,
  ReportInterval,
  ReportOutput,
  ReportRun,
  ReportScoreDetail,
  ReportSelection,
  ReportTaskDetail,
  ReportTrialDetail,
} from './report-data.js';
import type { ReportRows, ReportTable } from './report-rows.js';
import { clusterTInterval95 } from './stats/cluster-t-interval-95.js';
import { histogramBins } from './stats/histogram-bins.js';

/**
 * Everything the HTML writer embeds: the core data, one detail per task, and the details of the kept
 * trial rows (`data.detail.rows`, in that order). When the rows were sealed as they passed (a stream),
 * the per-row columns are `columnText` and `data.trials.id`, `data.trials.status`, `data.scoreStatus`
 * and `data.values` are left empty: the writer embeds the text in their place.
 */
export interface ReportModel {
  data: ReportData;
  taskDetails: ReportTaskDetail[];
  trialDetails: ReportTrialDetail[];
  columnText?: Extract<ReportTable, { kind: 'text' }>;
}

/** The run's identity as the header shows it: its id and `metadata.json` (read leniently). */
export interface ReportRunInfo {
  runId: string;
  metadata: RunMetadata | JsonObject | null;
}

/** Inputs of {@link buildReportModel}: what `ReportCollector` gathered plus the finished summary. */
export interface ReportModelInput {
  run: ReportRunInfo;
  summary: Summary;
  tasks: readonly TaskSpec[];
  rows: ReportRows;
  /** Details of the kept rows, by row. */
  details: ReadonlyMap<number, ReportTrialDetail>;
  selection: ReportSelection;
  /** Notes to show under the header (e.g. what was left out). */
  notes: readonly string[];
  /** Longest string kept in task details (default 4000). */
  maxTextChars?: number;
}

/** Fewest values (or tasks, for the clustered interval) for which a 95% interval is shown. */
const MIN_INTERVAL_N = 3;

/** Six significant digits (plot positions only; aggregates keep full precision). */
function round6(x: number): number {
  return Number.parseFloat(x.toPrecision(6));
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function runOf(bundle: ReportRunInfo): ReportRun {
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

/**
 * The 95% interval of an aggregate row, clipped to [0, 1] when its values lie there: output rows from
 * their per-task values (`groups`, the finite numbers of each task), pass@k and view rows from the
 * row's moments.
 */
function intervalOf(
  row: AggregateScore,
  c: Classified,
  groups: readonly Float64Array[],
): ReportInterval | null {
  let ci: ReportInterval | null = null;
  if (c.kind === 'output') {
    const n = groups.reduce((a, g) => a + g.length, 0);
    const tasks = groups.filter((g) => g.length > 0).length;
    const interval = n === row.count ? clusterTInterval95(groups) : null;
    if (interval?.method === 'cluster' && tasks >= MIN_INTERVAL_N) {
      const method = `Student-t, standard error clustered by task (CR1), ${tasks} tasks, df=${tasks - 1}`;
      ci = { lo: interval.lo, hi: interval.hi, method };
    } else if (interval?.method === 'iid' && n >= MIN_INTERVAL_N) {
      ci = {
        lo: interval.lo,
        hi: interval.hi,
        method: `Student-t over ${n} repeats of one task, df=${n - 1}`,
      };
    }
  } else if (c.kind === 'pass@k' || c.kind === 'view') {
    const n = row.count ?? 0;
    const interval =
      n >= MIN_INTERVAL_N && row.mean !== null && row.sample_std_dev !== null
        ? studentTIntervalFromMoments(row.mean, row.sample_std_dev, n)
        : null;
    if (interval) {
      const over =
        c.kind === 'pass@k' ? `${n} per-task estimates` : `${n} opportunities (treated as independent)`;
      ci = { lo: interval.low, hi: interval.high, method: `Student-t over ${over}, df=${n - 1}` };
    }
  }
  if (ci === null || row.min === null || row.max === null || row.min < 0 || row.max > 1) return ci;
  if (ci.lo >= 0 && ci.hi <= 1) return ci;
  return { lo: Math.max(0, ci.lo), hi: Math.min(1, ci.hi), method: `${ci.method}; clipped to [0, 1]` };
}

/**
 * Builds the report's data from the gathered rows and the finished summary: header facts and counts,
 * every aggregate row classified (output / view / pass@k / scalar) with its coverage and a 95%
 * interval, per-output plot series (histogram, value counts, per-task means, pass@k curve), the
 * columnar per-trial table for the task explorer, per-task details, and the details of the kept trials
 * with the selection that chose them. Plot values come from `summary.task_metric_values` (the SDK's
 * per-task values); a summary without them falls back to the value columns.
 *
 * @example
 * const model = buildReportModel({ run, summary, tasks, rows, details, selection, notes: [] });
 * model.data.aggregates.find((a) => a.name === 'harbor_reward.reward')?.mean; // 0.5
 */
export function buildReportModel(input: ReportModelInput): ReportModel {
  const { summary, tasks, rows } = input;
  const maxText = input.maxTextChars ?? 4000;
  const limits = { maxText };
  const chunkSize = 500; // trial details per lazily parsed chunk
  const taskIds = rows.taskIds;

  const typeSet = new Set<string>(rows.metricTypes());
  for (const task of tasks) for (const m of task.metrics) typeSet.add(m.type);
  const metricTypes = [...typeSet].sort(compareStrings);

  // Outputs: declared by tasks, present in coverage, or (without task specs) emitted by scores.
  const outputPairs = new Map<string, [string, string, OutputKind | 'unknown']>();
  const addOutput = (type: string, name: string, kind: OutputKind | 'unknown' = 'unknown'): void => {
    const key = `${type}.${name}`;
    if (!outputPairs.has(key)) outputPairs.set(key, [type, name, kind]);
  };
  for (const task of tasks) {
    for (const m of task.metrics)
      for (const out of m.outputs) addOutput(m.type, out.name, kindOfValueSchema(out.value_schema));
  }
  for (const [type, outputs] of Object.entries(summary.metric_coverage)) {
    for (const name of Object.keys(outputs)) addOutput(type, name);
  }
  if (tasks.length === 0) for (const [type, name] of rows.seenOutputs.values()) addOutput(type, name);
  const outputList = [...outputPairs.entries()].sort(
    (a, b) => compareStrings(a[1][0], b[1][0]) || compareStrings(a[1][1], b[1][1]),
  );
  const outputKeys = new Set(outputPairs.keys());

  const table = rows.table(
    metricTypes,
    outputList.map(([key]) => key),
  );

  // Per-task values of each output (from the summary; from the columns when the summary has none).
  const taskValues = (key: string): Map<number, unknown[]> => {
    const byTask = new Map<number, unknown[]>();
    let found = false;
    const taskMetricValues = summary.task_metric_values;
    const columnar = ColumnarTaskValues.of(taskMetricValues);
    for (const taskId of Object.keys(taskMetricValues)) {
      const list: unknown[] = [];
      // the columns while the summary has them: no object per task value
      const columns = columnar?.columns(taskId) ?? null;
      if (columns !== null) {
        const column = columns.find(([k]) => k === key)?.[1];
        if (column === undefined) continue;
        for (let i = 0; i < column.length; i += 1)
          if (column.kind(i) !== TaskValueColumn.MISSING) list.push(column.value(i));
      } else {
        const records = taskMetricValues[taskId]?.[key];
        if (!records) continue;
        for (const record of records) if (record.value_type !== 'missing') list.push(record.value);
      }
      found = true;
      byTask.set(rows.addTask(taskId), list);
    }
    if (found) return byTask;
    const column = rows.valueColumn(key);
    const runs = rows.taskRuns();
    for (let r = 0, row = 0; r < runs.length; r += 2) {
      const task = runs[r] as number;
      for (const end = row + (runs[r + 1] as number); row < end; row += 1) {
        const v = column[row];
        if (v === null || v === undefined || isObj(v)) continue;
        const list = byTask.get(task);
        if (list) list.push(v);
        else byTask.set(task, [v]);
      }
    }
    return byTask;
  };
  const aggregateRows = summary.scores.scores.map((row) => ({ row, c: classify(row, outputKeys) }));
  /** Per output, the finite numbers of each task: the values of its interval. */
  const groupsByKey = new Map<string, Float64Array[]>();
  const outputs: ReportOutput[] = outputList.map(([key, [metric, output, kind]]) => {
    const byTask = taskValues(key);
    const isBoolean = kind === 'boolean';
    let total = 0;
    for (const list of byTask.values()) total += list.length;
    // the output's numbers across the run, sized once and outside the heap (not grown by pushes)
    const all = new Float64Array(total);
    let numbers = 0;
    const means: [number, number][] = [];
    const counts = new Map<string, number>();
    const groups: Float64Array[] = [];
    for (const [task, list] of byTask) {
      const first = numbers;
      let sum = 0;
      let n = 0;
      for (const v of list) {
        const plain = numericOf(v, false);
        if (plain !== null) all[numbers++] = plain;
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
      groups.push(all.subarray(first, numbers));
    }
    groupsByKey.set(key, groups);
    means.sort((a, b) => a[1] - b[1] || compareStrings(taskIds[a[0]] as string, taskIds[b[0]] as string));
    let valueCounts: [string, number][] | null = null;
    if (counts.size > 0 && (kind === 'label' || isBoolean || numbers === 0)) {
      const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));
      valueCounts = sorted.slice(0, 12);
      const rest = sorted.slice(12).reduce((acc, [, c]) => acc + c, 0);
      if (rest > 0) valueCounts.push(['(other)', rest]);
    }
    const passAtK = aggregateRows
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
      histogram: kind === 'label' || isBoolean ? null : histogramBins(all.subarray(0, numbers)),
      valueCounts,
      taskMeans: { task: means.map((m) => m[0]), mean: means.map((m) => round6(m[1])) },
      passAtK,
    };
  });
  const outputByKey = new Map(outputs.map((o, i) => [o.key, i]));

  const aggregates: ReportAggregate[] = aggregateRows.map(({ row, c }) => {
    const out = c.kind === 'output' ? outputs[outputByKey.get(c.key as string) as number] : undefined;
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
      value: row.score_type === 'scalar' ? numOrNull(row.value) : null,
      coverage: out?.coverage ?? null,
      ci: intervalOf(row, c, groupsByKey.get(c.key as string) ?? []),
    };
  });

  // Declared-output sets per task (spec §7.1 applicability), deduplicated.
  const declSets: number[][] = [];
  const declIndex = new Map<string, number>();
  const specById = new Map(tasks.map((t) => [t.id, t]));
  const taskDecl = taskIds.map((id) => {
    const task = specById.get(id);
    if (!task) return tasks.length === 0 ? -1 : declSetOf([]);
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
  const runs = rows.taskRuns();
  for (let r = 0; r < runs.length; r += 2) {
    const task = runs[r] as number;
    taskTrialCount[task] = (taskTrialCount[task] ?? 0) + (runs[r + 1] as number);
  }

  const errorsByType = Object.entries(summary.error_trial_ids)
    .map(([type, ids]): [string, number] => [type, ids.length])
    .sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]));

  const detailRows = [...input.details.keys()].sort((a, b) => a - b);
  const diagnosticColumns = rows.diagnosticColumns();
  const data: ReportData = {
    version: 1,
    run: runOf(input.run),
    counts: {
      tasks: summary.task_count,
      trials: summary.trial_count,
      scores: summary.score_count,
      errors: summary.error_count,
      errorsByType,
      trialStatus: { ...rows.trialStatus },
      scoreStatus: { ...rows.scoreStatus },
      diagnostics: [...rows.diagnosticsByCode.values()].reduce((a, n) => a + n, 0),
      diagnosticsByCode: [...rows.diagnosticsByCode.entries()].sort(
        (a, b) => b[1] - a[1] || compareStrings(a[0], b[0]),
      ),
    },
    aggregates,
    outputs,
    metricTypes,
    tasks: { id: taskIds, trialCount: taskTrialCount, decl: taskDecl },
    declSets,
    measurementKeys: [...MEASUREMENT_KEYS],
    trials: {
      taskRuns: runs,
      id: table.kind === 'plain' ? table.id : [],
      status: table.kind === 'plain' ? table.status : '',
      errorRows: rows.errorRows,
      errorOfRow: rows.errorOfRow,
      errorTypes: rows.errorTypes,
      diagnosticRows: diagnosticColumns.rows,
      diagnosticCount: diagnosticColumns.count,
      diagnosticText: diagnosticColumns.text,
    },
    scoreStatus: table.kind === 'plain' ? table.scoreStatus : [],
    values: table.kind === 'plain' ? table.values : [],
    detail: { chunkSize, chunks: Math.ceil(detailRows.length / chunkSize), rows: detailRows },
    selection: input.selection,
    notes: [...input.notes],
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

  // A score the page can rebuild from the columns (the row's first of its type, nothing beyond status
  // and scalar output values) is stored as its metric type's index.
  const typeIndex = new Map(metricTypes.map((t, i) => [t, i]));
  const inColumns = (score: ReportScoreDetail, row: number): boolean => {
    if (score.diagnostics !== undefined || score.metadata !== undefined) return false;
    const seen = new Set<string>();
    for (const [name, v] of score.outputs) {
      const key = `${score.type}.${name}`;
      if (seen.has(name) || !outputKeys.has(key)) return false;
      seen.add(name);
      if (!(typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string')) return false;
      if (rows.valueAt(key, row) !== v) return false;
    }
    return true;
  };
  const trialDetails = detailRows.map((row) => {
    const detail = input.details.get(row) as ReportTrialDetail;
    const firstOfType = new Set<string>();
    const scores = detail.scores.map((score) => {
      if (typeof score === 'number' || firstOfType.has(score.type)) return score;
      firstOfType.add(score.type);
      return inColumns(score, row) ? (typeIndex.get(score.type) as number) : score;
    });
    return { ...detail, scores };
  });
  return { data, taskDetails, trialDetails, ...(table.kind === 'text' ? { columnText: table } : {}) };
}
