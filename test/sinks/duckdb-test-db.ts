import type { DuckDBConnection } from '@duckdb/node-api';
import { ensureStoreSchema } from '../../src/sinks/duckdb/store-tables.js';
import { openDuckDB } from '../../src/sinks/duckdb/open-duckdb.js';

/**
 * Runs `fn` on a fresh `:memory:` DuckDB with the store schema, closing it afterwards: the one way
 * the DuckDB tests get a database, so no case sees another's rows.
 */
export async function withTestDb<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const db = await openDuckDB(':memory:', { threads: 1 });
  try {
    await ensureStoreSchema(db.connection);
    return await fn(db.connection);
  } finally {
    db.close();
  }
}

/** All rows of a query as JS values (BIGINT → bigint, lists → arrays). */
export async function queryRows(
  connection: DuckDBConnection,
  sql: string,
): Promise<Record<string, unknown>[]> {
  return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}
