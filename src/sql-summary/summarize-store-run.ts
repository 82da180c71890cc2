import { sqlString } from '../sinks/duckdb/store-tables.js';
import type { DuckDBConnection, DuckDBValue, DuckDBDataChunk } from '@duckdb/node-api';
import type { AggregateScore, CoverageCounts, Summary } from '../model/summary.js';
import { ColumnarTaskValues } from '../summary/columnar-task-values.js';
import { TaskValueColumn } from '../summary/task-value-column.js';
import { aggregateRangeScore } from '../summary/aggregate-range-score.js';
import { passAtKScores, type PassAtKTaskCounts } from '../summary/pass-at-k-scores.js';
import { registerSummaryFunctions } from './register-summary-functions.js';
import { STORE_SOURCE, SUMMARY_SQL, type SummarySource } from './summary-sql.js';
import { appendAll } from '../util/append-all.js';
import duckdb from '@duckdb/node-bindings';

/** Options of `summarizeStoreRun`. */
export interface SummarizeStoreRunOptions {
  /** Runner-contributed aggregates appended unchanged (the store does not keep them). */
  extraScores?: readonly AggregateScore[] | undefined;
  /**
   * Gives the task values written as float literals (`1.0`) their kind, from the temp table
   * `_es_float_lit` that `bulkLoadBundle` leaves on the connection; the `isFloat` of the summary's
   * `ColumnarTaskValues` then answers the summary writers.
   */
  floatLiterals?: boolean | undefined;
  /**
   * Where the score and trial rows are read: the store tables (default), or relations over rows
   * staged from a bundle's files (`stageBundle`), which fill no store table.
   */
  source?: SummarySource | undefined;
}

/**
 * Computes the summary of one stored run (spec §7) in SQL over the store tables — aggregates with
 * every statistic and percentile, coverage, task values, views, pass@k, ordering, counts and the
 * error rollup — and returns the same `Summary` object as the in-memory `buildSummary`. Each
 * aggregate's statistics come from its values read back in SDK order by the in-memory engine's
 * `aggregateRangeScore`; task values are read into columns (`ColumnarTaskValues`). Uses temp tables
 * (works on read-only files); DuckDB may spill to its `temp_directory` on large runs.
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
  const source = options.source ?? STORE_SOURCE;
  // settings changed for the read-backs, restored at the end (the connection may be a store sink's)
  const restore = (
    await rows(`SELECT name, value FROM duckdb_settings()
      WHERE name IN ('preserve_insertion_order', 'memory_limit')`)
  ).map(([name, value]) => `SET ${name as string} = ${sqlString(value as string)}`);

  try {
    for (const sql of SUMMARY_SQL.prepare(withSpecs, source, options.floatLiterals === true)) await run(sql);
    for (const sql of SUMMARY_SQL.releaseSteps) await run(sql);
    // the last reads of the score and trial rows: the staged rows can go before the read-backs
    const [counts] = await rows(SUMMARY_SQL.selectCounts(withSpecs, source));
    const errors: Record<string, string[]> = {};
    let errorCount = 0;
    for (const [type, ids] of await rows(SUMMARY_SQL.selectErrors(source))) {
      const list = listItems(ids) as string[];
      setOwn(errors, type as string, list);
      errorCount += list.length;
    }
    for (const sql of source.release ?? []) await run(sql);

    const aggregates: AggregateScore[] = await readAggregates(
      connection,
      await rows(SUMMARY_SQL.selectAggregates),
    );
    await run(SUMMARY_SQL.releaseValues);
    appendAll(aggregates, await readPassAtK(connection));
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

    // key_id → its column (key ids are dense, 1-based, in task then key order); a task's columns
    // share its trial id list
    const columns: TaskValueColumn[] = [];
    // key_id → its task's key map and key, to put the column sized exactly in its place once read
    const places: [Map<string, TaskValueColumn>, string][] = [];
    const taskColumns: [string, Map<string, TaskValueColumn>][] = [];
    let lastTask: string | null = null;
    let byKey = new Map<string, TaskValueColumn>();
    let trialIds: string[] = [];
    for (const [task, type, name, keyId] of await rows(SUMMARY_SQL.selectTaskKeys)) {
      if (task !== lastTask) {
        lastTask = task as string;
        byKey = new Map();
        taskColumns.push([lastTask, byKey]);
        trialIds = [];
      }
      if (type === null || name === null) continue;
      const column = new TaskValueColumn(trialIds);
      const key = `${type as string}.${name as string}`;
      columns[num(keyId)] = column;
      places[num(keyId)] = [byKey, key];
      // a repeated `type.name` key (metric types may contain dots): the last one wins, in the first's place
      byKey.set(key, column);
    }
    await streamRecords(connection, columns, (keyId) => {
      // the arrays grew by pushes (up to half unused); a copy holds just the records
      const column = columns[keyId] as TaskValueColumn;
      const [byKey, key] = places[keyId] as [Map<string, TaskValueColumn>, string];
      const exact = new TaskValueColumn(
        column.trialIds,
        column.codes.slice(),
        column.values.slice(),
        column.labels.slice(),
      );
      columns[keyId] = exact;
      if (byKey.get(key) === column) byKey.set(key, exact);
    });
    const values = ColumnarTaskValues.create(taskColumns.map(([task, byKey]) => [task, [...byKey]]));

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
    for (const sql of restore) await connection.run(sql);
  }
}

/**
 * Streams the task value records chunk by chunk into their key's column: fixed-width columns read
 * whole (`fixedChunkColumn`), trial ids and labels looked up in the strings read once; no object
 * per record.
 */
async function streamRecords(
  connection: DuckDBConnection,
  columns: TaskValueColumn[],
  done: (keyId: number) => void,
) {
  // what DuckDB still holds is only scanned from here while the heap fills: its memory goes back
  await lowerMemoryLimit(connection);
  const strings: string[] = [];
  for (;;) {
    const reader = await connection.runAndReadAll(SUMMARY_SQL.selectRecordStrings, { from: strings.length });
    const list = reader.getRows()[0]?.[0];
    if (typeof list !== 'string') break;
    appendAll(strings, JSON.parse(list) as string[]);
  }
  await connection.run(SUMMARY_SQL.releaseStrings);
  // string id → index in the current task's trial id list
  const trialIndex = new Map<number, number>();
  let lastIds: string[] | null = null;
  // records come in key order: a key is complete when the next one starts
  let lastKey = -1;
  const result = await connection.stream(SUMMARY_SQL.selectRecords);
  for await (const chunk of result) {
    const keys = fixedChunkColumn(chunk, 0, 'int32');
    const trials = fixedChunkColumn(chunk, 1, 'int32');
    const codes = fixedChunkColumn(chunk, 2, 'uint8');
    const nums = fixedChunkColumn(chunk, 3, 'float64');
    const bools = fixedChunkColumn(chunk, 4, 'uint8');
    const labels = fixedChunkColumn(chunk, 5, 'int32');
    const floats = fixedChunkColumn(chunk, 6, 'uint8');
    // read once: `rowCount` is a call into DuckDB
    const rowCount = chunk.rowCount;
    for (let r = 0; r < rowCount; r++) {
      const keyId = keys[r] as number;
      const column = columns[keyId];
      if (column === undefined) continue;
      if (keyId !== lastKey) {
        if (lastKey !== -1) done(lastKey);
        lastKey = keyId;
      }
      const ids = column.trialIds as string[];
      if (ids !== lastIds) {
        lastIds = ids;
        trialIndex.clear();
      }
      const sid = trials[r] as number;
      let trial = trialIndex.get(sid);
      if (trial === undefined) {
        trial = ids.length;
        ids.push(strings[sid] as string);
        trialIndex.set(sid, trial);
      }
      const code = codes[r];
      if (code === 0) column.push(trial, TaskValueColumn.MISSING, 0);
      else if (code === 2) column.pushLabel(trial, strings[labels[r] as number] as string);
      else if (bools[r] === 1)
        column.push(trial, nums[r] === 1 ? TaskValueColumn.TRUE : TaskValueColumn.FALSE, 0);
      else
        column.push(
          trial,
          floats[r] === 1 ? TaskValueColumn.FLOAT : TaskValueColumn.NUMBER,
          nums[r] as number,
        );
    }
  }
  if (lastKey !== -1) done(lastKey);
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
    const rowCount = chunk.rowCount;
    for (let r = 0; r < rowCount; r++) {
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

/** The pass@k rows, from each declaring task's counts, by the in-memory engine's `passAtKScores`. */
async function readPassAtK(connection: DuckDBConnection): Promise<AggregateScore[]> {
  const out: AggregateScore[] = [];
  let last: [DuckDBValue, DuckDBValue] | null = null;
  let tasks: PassAtKTaskCounts[] = [];
  const finish = (): void => {
    if (last !== null) appendAll(out, passAtKScores(`${last[0] as string}.${last[1] as string}`, tasks));
  };
  for (const [type, name, n, c, opportunities] of (
    await connection.runAndReadAll(SUMMARY_SQL.selectPassAtKTasks)
  ).getRows()) {
    // a pair is its two names (a metric type or an output name may contain a dot)
    if (last === null || last[0] !== type || last[1] !== name) {
      finish();
      last = [type as DuckDBValue, name as DuckDBValue];
      tasks = [];
    }
    tasks.push({ n: num(n), c: num(c), opportunities: num(opportunities) });
  }
  finish();
  return out;
}

/** DuckDB's memory while the records are scanned (the limit is lowered to it, never raised). */
const SCAN_MEMORY_BYTES = 256 * 2 ** 20;

/**
 * Lowers DuckDB's `memory_limit` to `SCAN_MEMORY_BYTES` when it is above: DuckDB then writes the
 * blocks it holds past that to its temp directory and frees them. Left as it is when DuckDB cannot.
 */
async function lowerMemoryLimit(connection: DuckDBConnection): Promise<void> {
  const [[limit]] = (await connection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRows() as [
    [string],
  ];
  if (byteSize(limit) <= SCAN_MEMORY_BYTES) return;
  await connection.run(`SET memory_limit = '${SCAN_MEMORY_BYTES}B'`).catch(() => undefined);
}

/** Bytes of a DuckDB size setting as it prints it (`953.6 MiB`, `1.0 GiB`, `0 bytes`). */
function byteSize(text: string): number {
  const match = /^([\d.]+)\s*(?:([KMGTP])(i?)B|bytes)$/.exec(text.trim());
  if (match === null) return Infinity;
  const power = match[2] === undefined ? 0 : ' KMGTP'.indexOf(match[2]);
  return Number(match[1]) * (match[3] === 'i' ? 1024 : 1000) ** power;
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

/** The typed arrays `fixedChunkColumn` reads, by the DuckDB type of the column. */
interface FixedArrays {
  /** DOUBLE */
  float64: Float64Array;
  /** INTEGER */
  int32: Int32Array;
  /** BOOLEAN, UTINYINT */
  uint8: Uint8Array;
}

const MAKE = {
  float64: (bytes: ArrayBuffer) => new Float64Array(bytes),
  int32: (bytes: ArrayBuffer) => new Int32Array(bytes),
  uint8: (bytes: ArrayBuffer) => new Uint8Array(bytes),
} as const;

const WIDTH = { float64: 8, int32: 4, uint8: 1 } as const;

/**
 * A copy of one fixed-width column of a result chunk as a typed array, read with one call (no value
 * per cell). The column must have the given width and no NULLs the caller reads (a NULL cell holds
 * an unspecified value): `coalesce` them in the SQL.
 *
 * @example
 * for await (const chunk of await connection.stream('SELECT 1.5::DOUBLE')) fixedChunkColumn(chunk, 0, 'float64'); // Float64Array [1.5]
 */
export function fixedChunkColumn<K extends keyof FixedArrays>(
  chunk: DuckDBDataChunk,
  column: number,
  kind: K,
): FixedArrays[K] {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const bytes = duckdb.vector_get_data(vector, chunk.rowCount * WIDTH[kind]);
  // copied: the chunk's memory is DuckDB's and goes away with the chunk
  return MAKE[kind](bytes.slice().buffer) as FixedArrays[K];
}
