import type { AggregateScore, Summary, TaskValueRecord } from '../model/summary.js';
import { ColumnarTaskValues } from '../summary/columnar-task-values.js';
import { TaskValueColumn } from '../summary/task-value-column.js';
import { clusteredMeanInterval } from './clustered-mean-interval.js';
import { jstatDistributions } from './jstat-distributions.js';
import type { StatsInterval } from './stats-interval.js';
import { studentTIntervalFromMoments } from './student-t-interval-from-moments.js';

/** What an aggregate of `summary.json` is, as far as its intervals go. */
export type AggregateKind = 'output' | 'pass_at_k' | 'view' | 'extra';

/** Intervals of one aggregate (one entry of `stats.json`'s `aggregates`). */
export interface AggregateStats {
  name: string;
  kind: AggregateKind;
  /**
   * What the intervals are about: the aggregate's finite numbers (`numbers`), or, for an output whose
   * values are all booleans (the summary aggregates none of them), the share of `true` (`booleans`).
   */
  values: 'numbers' | 'booleans';
  /** Values used (trials for outputs, tasks for pass@k). */
  n: number;
  /** Tasks with at least one value (null where per-task values are not in the summary). */
  tasks: number | null;
  mean: number | null;
  /** Every interval that applies, each naming its method; empty when none does (the reason in `note`). */
  intervals: StatsInterval[];
  note: string | null;
}

/** The content of `stats.json`. */
export interface BundleStats {
  stats_version: 1;
  confidence: number;
  aggregates: AggregateStats[];
}

/**
 * The intervals of every aggregate of a summary (pure: reads only `summary.scores` and
 * `summary.task_metric_values`):
 * - outputs: Student-t over the trial values; the clustered interval (Miller 2024) when some task has
 *   several values and there are two tasks or more; Wilson when every value is 0/1 or a boolean;
 * - pass@k: Student-t over the per-task estimates (tasks are independent);
 * - views and runner extras: Student-t from the summary's mean, sample standard deviation and count.
 *
 * @example
 * bundleStats(summary).aggregates.find((a) => a.name === 'verifier_reward.reward')?.intervals;
 */
export function bundleStats(summary: Summary, confidence = 0.95): BundleStats {
  const perTask = taskListsByOutput(summary);
  const aggregates = summary.scores.scores.map((aggregate): AggregateStats => {
    const lists = perTask.get(aggregate.name);
    // one output's values at a time: a run of 50M values is never held as numbers all at once
    if (lists !== undefined) return outputStats(aggregate, lists.map(taskValues), confidence);
    const kind: AggregateKind = /\.pass@\d+$/.test(aggregate.name)
      ? 'pass_at_k'
      : aggregate.name.startsWith('view.')
        ? 'view'
        : 'extra';
    return momentStats(aggregate, kind, confidence);
  });
  return { stats_version: 1, confidence, aggregates };
}

interface TaskValues {
  numbers: number[];
  booleans: number[];
}

/** One task's values of one output: its column, or its records. */
type TaskList = TaskValueColumn | readonly TaskValueRecord[];

/** Each output's per-task lists, in task order (references only: no value is copied). */
function taskListsByOutput(summary: Summary): Map<string, TaskList[]> {
  const byOutput = new Map<string, TaskList[]>();
  const add = (name: string, list: TaskList): void => {
    let lists = byOutput.get(name);
    if (lists === undefined) byOutput.set(name, (lists = []));
    lists.push(list);
  };
  const taskMetricValues = summary.task_metric_values;
  const columnar = ColumnarTaskValues.of(taskMetricValues);
  for (const task of Object.keys(taskMetricValues)) {
    // Columns when the summary has them: a run of 50M values never becomes 50M record objects.
    const columns = columnar?.columns(task) ?? null;
    if (columns !== null) {
      for (const [name, column] of columns) add(name, column);
      continue;
    }
    for (const [name, records] of Object.entries(taskMetricValues[task] ?? {})) add(name, records);
  }
  return byOutput;
}

function taskValues(list: TaskList): TaskValues {
  const values: TaskValues = { numbers: [], booleans: [] };
  if (list instanceof TaskValueColumn) {
    for (let i = 0; i < list.length; i++) {
      const kind = list.kind(i);
      if (kind === TaskValueColumn.TRUE) values.booleans.push(1);
      else if (kind === TaskValueColumn.FALSE) values.booleans.push(0);
      else if (kind === TaskValueColumn.NUMBER || kind === TaskValueColumn.FLOAT) {
        const v = list.values[i] as number;
        if (Number.isFinite(v)) values.numbers.push(v);
      }
    }
    return values;
  }
  for (const record of list) {
    if (record.value_type !== 'number') continue;
    if (typeof record.value === 'boolean') values.booleans.push(record.value ? 1 : 0);
    else if (typeof record.value === 'number' && Number.isFinite(record.value))
      values.numbers.push(record.value);
  }
  return values;
}

/** Student-t over every value of the groups, in group order (the same floats as over their concatenation). */
function groupsTInterval(groups: readonly (readonly number[])[], n: number, sum: number, confidence: number) {
  if (n < 2) return null;
  const mean = sum / n;
  let ss = 0;
  for (const group of groups) for (const v of group) ss += (v - mean) ** 2;
  return studentTIntervalFromMoments(mean, Math.sqrt(ss / (n - 1)), n, confidence);
}

function outputStats(
  aggregate: AggregateScore,
  tasks: readonly TaskValues[],
  confidence: number,
): AggregateStats {
  const useNumbers = tasks.some((t) => t.numbers.length > 0) || !tasks.some((t) => t.booleans.length > 0);
  const groups = tasks.map((t) => (useNumbers ? t.numbers : t.booleans)).filter((g) => g.length > 0);
  let n = 0;
  let sum = 0;
  let binary = true;
  for (const group of groups) {
    n += group.length;
    for (const v of group) {
      sum += v;
      if (v !== 0 && v !== 1) binary = false;
    }
  }
  const intervals: StatsInterval[] = [];
  const t = groupsTInterval(groups, n, sum, confidence);
  if (t !== null) intervals.push(t);
  if (groups.some((g) => g.length > 1)) {
    const clustered = clusteredMeanInterval(groups, confidence);
    if (clustered !== null) intervals.push(clustered);
  }
  if (n > 0 && binary) {
    const wilson = wilsonInterval(sum, n, confidence);
    if (wilson !== null) intervals.push(wilson);
  }
  return {
    name: aggregate.name,
    kind: 'output',
    values: useNumbers ? 'numbers' : 'booleans',
    n,
    tasks: groups.length,
    // the summary's own mean where it has one (its sum is Python's, to the last bit)
    mean: n === 0 ? null : useNumbers ? aggregate.mean : sum / n,
    intervals,
    note: intervals.length === 0 ? (n === 0 ? 'no values' : 'one value: no interval') : null,
  };
}

function momentStats(aggregate: AggregateScore, kind: AggregateKind, confidence: number): AggregateStats {
  const n = aggregate.count ?? 0;
  const mean = aggregate.mean;
  const interval =
    mean !== null && aggregate.sample_std_dev !== null
      ? studentTIntervalFromMoments(mean, aggregate.sample_std_dev, n, confidence)
      : null;
  const intervals: StatsInterval[] =
    interval === null ? [] : [kind === 'pass_at_k' ? { ...interval, method: 'pass_at_k_t' } : interval];
  return {
    name: aggregate.name,
    kind,
    values: 'numbers',
    n,
    tasks: kind === 'pass_at_k' ? n : null,
    mean,
    intervals,
    note:
      intervals.length > 0 ? null : aggregate.count === null ? 'sample size unknown' : 'fewer than 2 values',
  };
}

/**
 * Wilson score interval for a proportion (`successes` of `n`): always inside [0, 1], sensible at 0 and
 * n successes. `centre ± half` with `centre = (p̂ + z²/2n)/(1 + z²/n)` and
 * `half = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²)`. Null when `n` is 0; throws a `RangeError` when the
 * counts are not integers with `0 ≤ successes ≤ n`.
 *
 * @example
 * wilsonInterval(81, 263); // estimate 0.3079…, low 0.2553…, high 0.3662… (Newcombe 1998, table I)
 */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): StatsInterval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(n) || successes < 0 || successes > n)
    throw new RangeError(`wilsonInterval: need integers 0 ≤ successes ≤ n, got ${successes} of ${n}`);
  if (n === 0) return null;
  const z = jstatDistributions.normal.inv(1 - (1 - confidence) / 2, 0, 1);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    method: 'wilson',
    estimate: p,
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
    confidence,
    se: null,
    df: null,
    n,
  };
}
