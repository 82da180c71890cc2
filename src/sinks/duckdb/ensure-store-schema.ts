import type { DuckDBConnection } from '@duckdb/node-api';
import { STORE_TABLES } from './store-tables.js';

/**
 * Creates the store's tables that do not exist yet (idempotent; existing rows are kept).
 *
 * @example
 * await ensureStoreSchema(connection);
 * await connection.run('SELECT count(*) FROM scores');
 */
export async function ensureStoreSchema(connection: DuckDBConnection): Promise<void> {
  for (const t of STORE_TABLES) {
    const columns = t.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
    await connection.run(`CREATE TABLE IF NOT EXISTS ${quoteIdent(t.name)} (${columns})`);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
