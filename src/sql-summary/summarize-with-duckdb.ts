import type { JsonObject } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { DuckDBOpenOptions } from '../sinks/duckdb/duckdb-open-options.js';
import { openDuckDB } from '../sinks/duckdb/open-duckdb.js';
import type { StoreTrial } from '../sinks/duckdb/store-rows.js';
import { writeRun } from '../sinks/duckdb/write-run.js';
import { summarizeStoreRun } from './summarize-store-run.js';

/** Input of `summarizeWithDuckDB`: `buildSummary`'s input plus where to load it. */
export interface SummarizeWithDuckDBInput {
  /** DuckDB file to load the run into (its rows for this run are replaced); omitted = in memory. */
  db?: string | undefined;
  /** Run id to store under; default the first score's `run_id`, else `"run"`. */
  runId?: string | undefined;
  /** Task specs; null/omitted = no task specs. */
  tasks?: readonly TaskSpec[] | null | undefined;
  /** Trials (for the error rollup and the `trials` table); may be async. */
  trials?: Iterable<StoreTrial> | AsyncIterable<StoreTrial> | undefined;
  /** Score records in SDK score order; may be async (streamed). */
  scores: Iterable<ScoreRecord> | AsyncIterable<ScoreRecord>;
  /** Runner-contributed aggregates, appended unchanged. */
  extraScores?: readonly AggregateScore[] | undefined;
  /** Run metadata stored on the `runs` row. */
  metadata?: JsonObject | null | undefined;
  /** DuckDB settings, e.g. `{ memoryLimit: '4GB', tempDirectory: 'runs/spill' }` for big runs. */
  duckdb?: Omit<DuckDBOpenOptions, 'readOnly'> | undefined;
}

/**
 * The DuckDB summary engine: loads the run into DuckDB (in memory, or the given file) and computes
 * the summary in SQL (`summarizeStoreRun`). Same result as `buildSummary` for the same input.
 *
 * @example
 * const summary = await summarizeWithDuckDB({ tasks, trials, scores });
 * const stored = await summarizeWithDuckDB({ db: 'runs.duckdb', tasks, trials, scores });
 */
export async function summarizeWithDuckDB(input: SummarizeWithDuckDBInput): Promise<Summary> {
  const [first, scores] = await peek(input.scores);
  const runId = input.runId ?? first?.run_id ?? 'run';
  const db = await openDuckDB(input.db ?? ':memory:', input.duckdb ?? {});
  try {
    await writeRun(db.connection, {
      runId,
      tasks: input.tasks ?? null,
      trials: input.trials,
      scores,
      metadata: input.metadata ?? null,
    });
    return await summarizeStoreRun(db.connection, runId, { extraScores: input.extraScores });
  } finally {
    db.close();
  }
}

/** The first element of a (possibly async) iterable, and an iterable that still yields every element. */
async function peek<T>(
  items: Iterable<T> | AsyncIterable<T>,
): Promise<[T | undefined, AsyncIterable<T> | Iterable<T>]> {
  if (Array.isArray(items)) return [items[0] as T | undefined, items];
  const it =
    Symbol.asyncIterator in items
      ? (items as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (items as Iterable<T>)[Symbol.iterator]();
  const head = await it.next();
  if (head.done === true) return [undefined, []];
  const rest: AsyncIterable<T> = {
    async *[Symbol.asyncIterator]() {
      yield head.value;
      for (let n = await it.next(); n.done !== true; n = await it.next()) yield n.value;
    },
  };
  return [head.value, rest];
}
