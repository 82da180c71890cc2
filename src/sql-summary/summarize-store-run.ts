import type { DuckDBConnection, DuckDBDataChunk, DuckDBValue } from '@duckdb/node-api';
import {
  PERCENTILE_KEYS,
  type AggregateRangeScore,
  type AggregateScore,
  type CoverageCounts,
  type Percentiles,
  type Summary,
  type TaskValueRecord,
} from '../model/summary.js';
import { registerSummaryFunctions } from './register-summary-functions.js';
import { SUMMARY_SQL } from './summary-sql.js';
import type { TaskValueFloatFlags } from './task-value-float-flags.js';
import { appendAll } from '../util/append-all.js';

/** Options of `summarizeStoreRun`. */
export interface SummarizeStoreRunOptions {
  /** Runner-contributed aggregates appended unchanged (the store does not keep them). */
  extraScores?: readonly AggregateScore[] | undefined;
  /**
   * Marks the task values written as float literals, from the temp table `_es_float_lit` that
   * `bulkLoadBundle` leaves on the connection.
   */
  floatFlags?: TaskValueFloatFlags | undefined;
}

/**
 * Computes the summary of one stored run (spec §7) in SQL over the store tables — aggregates with
 * every statistic and percentile, coverage, task values, views, pass@k, ordering, counts and the
 * error rollup — and returns the same `Summary` object as the in-memory `buildSummary`. JavaScript
 * only shapes the result rows into objects. Uses temp tables (works on read-only files); DuckDB may
 * spill to its `temp_directory` on large runs.
 *
 * @example
 * const summary = await summarizeStoreRun(connection, 'agent-eval-20260715093012-1a2b3c4d');
 * summary.scores.scores[0]?.mean;
 */
export async function summarizeStoreRun(
  connection: DuckDBConnection,
  runId: string,
  options: SummarizeStoreRunOptions = {},
): Promise<Summary> {
  registerSummaryFunctions(connection);
  const params = { run: runId };
  const run = async (sql: string) =>
    sql.includes('$run') ? connection.run(sql, params) : connection.run(sql);
  const rows = async (sql: string) =>
    (sql.includes('$run')
      ? await connection.runAndReadAll(sql, params)
      : await connection.runAndReadAll(sql)
    ).getRows();

  const flag = await rows(
    `SELECT (SELECT any_value(has_task_specs) FROM runs WHERE run_id = $run),
            EXISTS (SELECT 1 FROM tasks WHERE run_id = $run)`,
  );
  const withSpecs = (flag[0]?.[0] ?? flag[0]?.[1]) === true;

  try {
    for (const sql of SUMMARY_SQL.prepare(withSpecs)) await run(sql);

    const aggregates: AggregateScore[] = [];
    for (const r of await rows(SUMMARY_SQL.selectAggregates)) aggregates.push(toAggregate(r));
    appendAll(aggregates, options.extraScores ?? []);

    const coverage: Record<string, Record<string, CoverageCounts>> = {};
    for (const [type, name, total, scored, failed] of await rows(SUMMARY_SQL.selectCoverage)) {
      const entry = ownOr(coverage, type as string);
      if (name === null) continue;
      const t = num(total);
      const s = num(scored);
      const f = num(failed);
      setOwn(entry, name as string, { total: t, scored: s, failed: f, missing: Math.max(t - s - f, 0) });
    }

    const values: Record<string, Record<string, TaskValueRecord[]>> = {};
    // key_id → its record list and task (key ids are dense, 1-based, in task then key order).
    const lists: TaskValueRecord[][] = [];
    const keyTask: string[] = [];
    for (const [task, type, name, keyId] of await rows(SUMMARY_SQL.selectTaskKeys)) {
      const entry = ownOr(values, task as string);
      if (type === null || name === null) continue;
      const list: TaskValueRecord[] = [];
      setOwn(entry, `${type as string}.${name as string}`, list);
      lists[num(keyId)] = list;
      keyTask[num(keyId)] = task as string;
    }
    await streamRecords(connection, lists, keyTask, options.floatFlags);

    const [counts] = await rows(SUMMARY_SQL.selectCounts(withSpecs));
    const errors: Record<string, string[]> = {};
    let errorCount = 0;
    for (const [type, ids] of await rows(SUMMARY_SQL.selectErrors)) {
      const list = listItems(ids) as string[];
      setOwn(errors, type as string, list);
      errorCount += list.length;
    }

    return {
      scores: { scores: aggregates },
      metric_coverage: coverage,
      task_metric_values: values,
      task_count: num(counts?.[0] ?? 0),
      trial_count: num(counts?.[1] ?? 0),
      score_count: num(counts?.[2] ?? 0),
      error_trial_ids: errors,
      error_count: errorCount,
    };
  } finally {
    for (const sql of SUMMARY_SQL.cleanup) await connection.run(sql);
  }
}

/** Streams the task value records chunk by chunk into their (task, metric, output) lists. */
type Vector = ReturnType<DuckDBDataChunk['getColumnVector']>;

/** Streams the task value records chunk by chunk into their key's list. */
async function streamRecords(
  connection: DuckDBConnection,
  lists: TaskValueRecord[][],
  keyTask: string[],
  floatFlags: TaskValueFloatFlags | undefined,
) {
  const result = await connection.stream(
    floatFlags === undefined ? SUMMARY_SQL.selectRecords : SUMMARY_SQL.selectRecordsWithFloats,
  );
  let lastKey = -1;
  let lastTask: string | undefined;
  let list: TaskValueRecord[] | undefined;
  // Records come key by key, task by task: one string per trial id of a task, shared by its keys.
  const ids = new Map<string, string>();
  for await (const chunk of result) {
    const [keyV, trialV, codeV, numV, boolV, labelV] = [0, 1, 2, 3, 4, 5].map((i) =>
      chunk.getColumnVector(i),
    ) as [Vector, Vector, Vector, Vector, Vector, Vector];
    const floatV = floatFlags === undefined ? null : chunk.getColumnVector(6);
    for (let r = 0; r < chunk.rowCount; r++) {
      const key = num(keyV.getItem(r));
      if (key !== lastKey) {
        lastKey = key;
        list = lists[key];
        const task = keyTask[key];
        if (task !== lastTask) {
          lastTask = task;
          ids.clear();
        }
      }
      if (list === undefined) continue;
      const rawId = trialV.getItem(r) as string;
      let trialId = ids.get(rawId);
      if (trialId === undefined) {
        trialId = rawId;
        ids.set(rawId, rawId);
      }
      const code = codeV.getItem(r) as number;
      if (code === 0) {
        list.push({ trial_id: trialId, value_type: 'missing', value: null });
      } else if (code === 2) {
        list.push({ trial_id: trialId, value_type: 'label', value: labelV.getItem(r) as string });
      } else {
        const v = numV.getItem(r) as number;
        if (floatV !== null && floatV.getItem(r) === true) floatFlags?.mark(list, list.length);
        list.push({
          trial_id: trialId,
          value_type: 'number',
          value: boolV.getItem(r) === true ? v === 1 : v,
        });
      }
    }
  }
}

function toAggregate(r: DuckDBValue[]): AggregateRangeScore {
  const [name, total, n, sum, mean, min, max, variance, stdDev, sampleVariance, sampleStdDev, pcts] = r;
  const count = num(n ?? 0);
  let percentiles: Percentiles | null = null;
  if (count > 0 && pcts !== null && pcts !== undefined) {
    const items = listItems(pcts) as number[];
    percentiles = {} as Percentiles;
    PERCENTILE_KEYS.forEach((key, i) => {
      (percentiles as Percentiles)[key] = items[i] as number;
    });
  }
  const f = (v: DuckDBValue | undefined): number | null => (count > 0 && typeof v === 'number' ? v : null);
  return {
    name: name as string,
    count,
    nan_count: Math.max(num(total ?? 0) - count, 0),
    sum: f(sum),
    mean: f(mean),
    min: f(min),
    max: f(max),
    median: percentiles === null ? null : percentiles.p50,
    std_dev: f(stdDev),
    variance: f(variance),
    sample_std_dev: count > 1 ? f(sampleStdDev) : null,
    sample_variance: count > 1 ? f(sampleVariance) : null,
    score_type: 'range',
    percentiles,
    histogram: null,
  };
}

function num(v: DuckDBValue | undefined): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

function listItems(v: DuckDBValue | undefined): DuckDBValue[] {
  return (v as { items: DuckDBValue[] }).items;
}

/** Assign an own enumerable property (also for `__proto__`) and return the value. */
function setOwn<T>(target: Record<string, T>, key: string, value: T): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

/** The own property `key` of `target`, created as `{}` when absent. */
function ownOr<T>(target: Record<string, Record<string, T>>, key: string): Record<string, T> {
  return Object.hasOwn(target, key) ? (target[key] as Record<string, T>) : setOwn(target, key, {});
}
