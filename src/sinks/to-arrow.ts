import { DuckDBSink, type DuckDBSinkOptions } from './duckdb/duckdb-sink.js';
import { exportArrow } from './duckdb/export-arrow.js';

/** Options of `toArrow`: the DuckDB sink's, minus what an in-memory staging store cannot use. */
export type ToArrowOptions = Omit<DuckDBSinkOptions, 'commit' | 'onCommitted'>;

/**
 * A sink that writes scored trials as Arrow IPC files, one per store table (`DIR/scores.arrow`,
 * `DIR/score_outputs.arrow`, ... — the same tables and columns as `toDuckDB`), written with
 * apache-arrow at `shutdown()`. Rows are staged in an in-memory DuckDB (which spills to
 * `tempDirectory` when given a `memoryLimit`).
 *
 * @example
 * const sink = toArrow('out/arrow');
 * await sink.write(scoredTrial);
 * await sink.shutdown(); // out/arrow/*.arrow
 */
export function toArrow(dir: string, options: ToArrowOptions = {}): DuckDBSink {
  return new DuckDBSink(':memory:', {
    ...options,
    onCommitted: async (connection) => {
      await exportArrow(connection, dir);
    },
  });
}
