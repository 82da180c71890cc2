import { DuckDBSink, type DuckDBSinkOptions } from './duckdb/duckdb-sink.js';

/**
 * A sink that writes scored trials into a DuckDB file (or `':memory:'`): tables `runs`, `tasks`
 * (+ declared metrics/outputs/views), `trials`, `scores`, `score_outputs`, `spans`, `tool_calls`,
 * every one with `run_id` (docs/sql.md). Re-writing a run replaces its rows; `shutdown()` commits.
 * `writeRun({...})` stores a whole loaded bundle.
 *
 * @example
 * const sink = toDuckDB('runs.duckdb', { memoryLimit: '4GB' });
 * await sink.write(scoredTrial);
 * await sink.shutdown();
 */
export function toDuckDB(file: string, options: DuckDBSinkOptions = {}): DuckDBSink {
  return new DuckDBSink(file, options);
}
