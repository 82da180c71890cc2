import type { Writable } from 'node:stream';
import { RecordBatchFileWriter, RecordBatchStreamWriter } from 'apache-arrow';
import type { DuckDBResult } from '@duckdb/node-api';
import { duckdbResultToArrow } from './duckdb-result-to-arrow.js';

/**
 * Writes a DuckDB result to `out` as Arrow IPC — `'stream'` (the IPC stream format: pandas
 * `pyarrow.ipc.open_stream`, polars `read_ipc_stream`) or `'file'` (the IPC file format, `.arrow`) —
 * batch by batch with backpressure, without ending `out`; at most `limit` rows. Returns the rows written.
 *
 * @example
 * await writeArrowIpc(await connection.stream('SELECT * FROM scores'), process.stdout, 'stream');
 */
export async function writeArrowIpc(
  result: DuckDBResult,
  out: Writable,
  format: 'stream' | 'file',
  limit = Infinity,
): Promise<number> {
  const { schema, batches } = duckdbResultToArrow(result);
  const writer = format === 'stream' ? new RecordBatchStreamWriter() : new RecordBatchFileWriter();
  const pump = (async () => {
    for await (const bytes of writer) {
      if (!out.write(bytes)) await new Promise((resolve) => out.once('drain', resolve));
    }
  })();
  let rows = 0;
  try {
    writer.reset(undefined, schema);
    for await (const batch of batches()) {
      const take = Math.min(batch.numRows, limit - rows);
      if (take <= 0) break;
      writer.write(take === batch.numRows ? batch : batch.slice(0, take));
      rows += take;
    }
  } finally {
    writer.close();
  }
  await pump;
  return rows;
}
