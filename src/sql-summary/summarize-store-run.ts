import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { AggregateScore, CoverageCounts, Summary, TaskValueRecord } from '../model/summary.js';
import { aggregateRangeScore } from '../summary/aggregate-range-score.js';
import { registerSummaryFunctions } from './register-summary-functions.js';
import { fixedChunkColumn } from './fixed-chunk-column.js';
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

    const aggregates: AggregateScore[] = await readAggregates(
      connection,
      await rows(SUMMARY_SQL.selectAggregates),
    );
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
    // key_id → its record list (key ids are dense, 1-based, in task then key order).
    const lists: TaskValueRecord[][] = [];
    for (const [task, type, name, keyId] of await rows(SUMMARY_SQL.selectTaskKeys)) {
      const entry = ownOr(values, task as string);
      if (type === null || name === null) continue;
      const list: TaskValueRecord[] = [];
      setOwn(entry, `${type as string}.${name as string}`, list);
      lists[num(keyId)] = list;
    }
    await streamRecords(connection, lists, options.floatFlags);

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

/**
 * Streams the task value records chunk by chunk into their key's list: fixed-width columns read
 * whole (`fixedChunkColumn`), trial ids and labels looked up in the strings read once.
 */
async function streamRecords(
  connection: DuckDBConnection,
  lists: TaskValueRecord[][],
  floatFlags: TaskValueFloatFlags | undefined,
) {
  const strings: string[] = [];
  for await (const chunk of await connection.stream(SUMMARY_SQL.selectRecordStrings)) {
    appendAll(strings, chunk.getColumnValues(0) as string[]);
  }
  const result = await connection.stream(SUMMARY_SQL.selectRecords(floatFlags !== undefined));
  for await (const chunk of result) {
    const keys = fixedChunkColumn(chunk, 0, 'int32');
    const trials = fixedChunkColumn(chunk, 1, 'int32');
    const codes = fixedChunkColumn(chunk, 2, 'uint8');
    const nums = fixedChunkColumn(chunk, 3, 'float64');
    const bools = fixedChunkColumn(chunk, 4, 'uint8');
    const labels = fixedChunkColumn(chunk, 5, 'int32');
    const floats = fixedChunkColumn(chunk, 6, 'uint8');
    for (let r = 0; r < chunk.rowCount; r++) {
      const list = lists[keys[r] as number];
      if (list === undefined) continue;
      const trialId = strings[trials[r] as number] as string;
      const code = codes[r];
      if (code === 0) {
        list.push({ trial_id: trialId, value_type: 'missing', value: null });
      } else if (code === 2) {
        list.push({ trial_id: trialId, value_type: 'label', value: strings[labels[r] as number] as string });
      } else {
        const v = nums[r] as number;
        if (floats[r] === 1) floatFlags?.mark(list, list.length);
        list.push({ trial_id: trialId, value_type: 'number', value: bools[r] === 1 ? v === 1 : v });
      }
    }
  }
}

/**
 * The aggregate rows (`selectAggregates`: id, name, total) with their statistics, computed by
 * `aggregateRangeScore` — the in-memory engine's function — over each aggregate's values, streamed in
 * SDK order as whole columns: one aggregate's values are held at a time.
 */
async function readAggregates(
  connection: DuckDBConnection,
  heads: DuckDBValue[][],
): Promise<AggregateScore[]> {
  const out: AggregateScore[] = [];
  let values = new Float64Array(1024);
  let n = 0;
  let next = 0;
  const finish = (upTo: number): void => {
    // aggregates up to `upTo` (exclusive) are complete: the current one has `n` values, the rest none
    for (; next < upTo && next < heads.length; next++) {
      const [, name, total] = heads[next] as DuckDBValue[];
      out.push(aggregateRangeScore(name as string, values.subarray(0, n), num(total)));
      n = 0;
    }
  };
  let current = -1;
  for await (const chunk of await connection.stream(SUMMARY_SQL.selectAggregateValues)) {
    const ids = fixedChunkColumn(chunk, 0, 'int32');
    const vs = fixedChunkColumn(chunk, 1, 'float64');
    const nz = fixedChunkColumn(chunk, 2, 'uint8');
    for (let r = 0; r < chunk.rowCount; r++) {
      const id = ids[r] as number;
      if (id !== current) {
        // agg ids are 1-based and dense: aggregates before `id` are done
        finish(id - 1);
        current = id;
      }
      if (n === values.length) {
        const grown = new Float64Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[n++] = nz[r] === 1 ? -0 : (vs[r] as number);
    }
  }
  finish(heads.length);
  return out;
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
