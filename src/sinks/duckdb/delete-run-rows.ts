import type { DuckDBConnection } from '@duckdb/node-api';
import { STORE_TABLES } from './store-tables.js';

/**
 * Deletes every row of one run from every store table (inside the caller's transaction, if any).
 *
 * @example
 * await deleteRunRows(connection, 'run-1');
 */
export async function deleteRunRows(connection: DuckDBConnection, runId: string): Promise<void> {
  for (const t of STORE_TABLES) {
    await connection.run(`DELETE FROM "${t.name}" WHERE run_id = $run`, { run: runId });
  }
}
