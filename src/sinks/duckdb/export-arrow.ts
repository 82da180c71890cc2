import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { STORE_TABLES } from './store-tables.js';
import { writeArrowIpc } from './write-arrow-ipc.js';

/**
 * Exports every store table to an Arrow IPC file `DIR/<table>.arrow` written with apache-arrow
 * (rows in the table's natural order, `run_id` as a column). Returns the row count per table.
 *
 * @example
 * await exportArrow(connection, 'out/arrow');
 * // python: pyarrow.ipc.open_file('out/arrow/scores.arrow').read_all()
 */
export async function exportArrow(
  connection: DuckDBConnection,
  dir: string,
): Promise<Record<string, number>> {
  mkdirSync(dir, { recursive: true });
  const counts: Record<string, number> = {};
  for (const t of STORE_TABLES) {
    const out = createWriteStream(join(dir, `${t.name}.arrow`));
    try {
      const result = await connection.stream(`SELECT * FROM "${t.name}" ORDER BY ${t.order}`);
      counts[t.name] = await writeArrowIpc(result, out, 'file');
    } finally {
      out.end();
      await finished(out);
    }
  }
  return counts;
}
