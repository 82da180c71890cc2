import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { DuckDBOpenOptions } from './duckdb-open-options.js';

/** An open DuckDB database with one connection; `close()` releases both (safe to call twice). */
export interface DuckDBSession {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  close(): void;
}

/**
 * Opens (or creates) a DuckDB database file, or `':memory:'`, with one connection.
 *
 * @example
 * const db = await openDuckDB('runs.duckdb', { readOnly: true });
 * const rows = (await db.connection.runAndReadAll('SELECT count(*) FROM scores')).getRows();
 * db.close();
 */
export async function openDuckDB(path: string, options: DuckDBOpenOptions = {}): Promise<DuckDBSession> {
  const config: Record<string, string> = { autoinstall_known_extensions: 'false' };
  if (options.readOnly === true) config['access_mode'] = 'READ_ONLY';
  if (options.memoryLimit !== undefined) config['memory_limit'] = options.memoryLimit;
  if (options.tempDirectory !== undefined) config['temp_directory'] = options.tempDirectory;
  if (options.threads !== undefined) config['threads'] = String(options.threads);
  const instance = await DuckDBInstance.create(path, config);
  let connection: DuckDBConnection;
  try {
    connection = await instance.connect();
  } catch (error) {
    instance.closeSync();
    throw error;
  }
  let closed = false;
  return {
    instance,
    connection,
    close() {
      if (closed) return;
      closed = true;
      connection.closeSync();
      instance.closeSync();
    },
  };
}
