import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString, STORE_TABLES } from './store-tables.js';

/**
 * Exports every store table to Parquet through DuckDB `COPY`, hive-partitioned by run:
 * `DIR/<table>/run_id=<run id, URL-encoded>/data_0.parquet` (the `run_id` column lives in the path;
 * read back with `read_parquet('DIR/scores/**\/*.parquet', hive_partitioning = true,
 * hive_types = {'run_id': VARCHAR})`). Each table directory is replaced. A table with no rows gets
 * no directory. Returns the row count per table.
 *
 * @example
 * await exportParquet(connection, 'out/parquet'); // { runs: 2, tasks: 10, ... }
 */
export async function exportParquet(
  connection: DuckDBConnection,
  dir: string,
): Promise<Record<string, number>> {
  mkdirSync(dir, { recursive: true });
  const counts: Record<string, number> = {};
  for (const t of STORE_TABLES) {
    const target = sqlString(resolve(join(dir, t.name)));
    const result = await connection.runAndReadAll(
      `COPY (SELECT * FROM "${t.name}" ORDER BY ${t.order}) TO ${target}
       (FORMAT parquet, PARTITION_BY (run_id), OVERWRITE true)`,
    );
    counts[t.name] = Number(result.getRows()[0]?.[0] ?? 0);
  }
  return counts;
}
