import duckdb from '@duckdb/node-bindings';
import { DuckDBDataChunk, DuckDBTypeId, type DuckDBConnection } from '@duckdb/node-api';
import { SPAN_TEXT_COLUMNS, type SpanBatch } from './span-batch-builder.js';

/** The trial a span row belongs to: its ordinal in the run, task id and trial id. */
export interface SpanBatchTrial {
  ordinal: number;
  taskId: string | null;
  trialId: string;
}

/** DuckDB's vector size: the most rows one data chunk holds. */
const CHUNK_ROWS = 2048;
/** `spans` table columns (docs/sql.md) of each text column of a {@link SpanBatch} row. */
const TEXT_COLUMN_AT = [5, 6, 7, 8, 9, 12, 13, 14, 15, 16];
/** Expected type of every `spans` column (JSON columns are VARCHAR with an alias). */
const COLUMN_TYPES: DuckDBTypeId[] = [
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.INTEGER,
  ...TEXT_COLUMN_AT.slice(0, 5).map(() => DuckDBTypeId.VARCHAR),
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UBIGINT,
  ...TEXT_COLUMN_AT.slice(5).map(() => DuckDBTypeId.VARCHAR),
];

/**
 * Appends a {@link SpanBatch} to the `spans` table in data chunks, writing the vectors directly: each
 * text cell is copied by DuckDB from the batch's UTF-8 bytes (no JavaScript string is made), integer
 * and validity columns are copied in one call per chunk. `trials[i]` names the trial of rows with
 * trial index `i`; rows of a null entry are skipped. Returns the rows appended.
 *
 * @example
 * await appendSpanBatch(connection, 'run-1', batch, [{ ordinal: 0, taskId: 't', trialId: 'conv-1' }]);
 */
export async function appendSpanBatch(
  connection: DuckDBConnection,
  runId: string,
  batch: SpanBatch,
  trials: readonly (SpanBatchTrial | null)[],
): Promise<number> {
  const { bytes, text, times, rows } = batch;
  // rows of trials that are still wanted (null = a version replaced within the batch)
  const live: number[] = [];
  for (let row = 0; row < batch.count; row++) if (trials[rows[row * 2]!] != null) live.push(row);
  const total = live.length;
  if (total === 0) return 0;
  const appender = await connection.createAppender('spans');
  try {
    const types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
    if (types.length !== COLUMN_TYPES.length || types.some((t, i) => t.typeId !== COLUMN_TYPES[i])) {
      throw new Error(`table spans does not have the expected columns (${types.join(', ')})`);
    }
    const run = Buffer.from(runId, 'utf8');
    const trialIds = trials.map((t) => (t === null ? null : Buffer.from(t.trialId, 'utf8')));
    const taskIds = trials.map((t) => (t?.taskId == null ? null : Buffer.from(t.taskId, 'utf8')));
    const ordinals = new BigInt64Array(CHUNK_ROWS);
    const spanOrdinals = new Int32Array(CHUNK_ROWS);
    const startTimes = new BigUint64Array(CHUNK_ROWS);
    const endTimes = new BigUint64Array(CHUNK_ROWS);
    for (let start = 0; start < total; start += CHUNK_ROWS) {
      const n = Math.min(CHUNK_ROWS, total - start);
      const chunk = DuckDBDataChunk.create(types, n);
      const vectors = types.map((_, i) => duckdb.data_chunk_get_vector(chunk.chunk, i));
      const runV = vectors[0]!;
      const taskV = vectors[2]!;
      const trialV = vectors[3]!;
      const textV = TEXT_COLUMN_AT.map((c) => vectors[c]!);
      /** Validity bitmasks of columns with a NULL in this chunk (all valid until cleared). */
      const nulls = new Map<number, BigUint64Array>();
      const invalidate = (column: number, row: number): void => {
        let mask = nulls.get(column);
        if (mask === undefined) {
          mask = new BigUint64Array(CHUNK_ROWS / 64).fill(0xffffffffffffffffn);
          nulls.set(column, mask);
        }
        mask[row >> 6]! &= ~(1n << BigInt(row & 63));
      };
      for (let r = 0; r < n; r++) {
        const row = live[start + r]!;
        const trial = rows[row * 2]!;
        duckdb.vector_assign_string_element_len(runV, r, run);
        ordinals[r] = BigInt(trials[trial]!.ordinal);
        const taskId = taskIds[trial]!;
        if (taskId === null) invalidate(2, r);
        else duckdb.vector_assign_string_element_len(taskV, r, taskId);
        duckdb.vector_assign_string_element_len(trialV, r, trialIds[trial]!);
        spanOrdinals[r] = rows[row * 2 + 1]!;
        startTimes[r] = times[row * 2]!;
        endTimes[r] = times[row * 2 + 1]!;
        const base = row * SPAN_TEXT_COLUMNS * 2;
        for (let c = 0; c < SPAN_TEXT_COLUMNS; c++) {
          const offset = text[base + c * 2]!;
          const length = text[base + c * 2 + 1]!;
          if (length < 0) invalidate(TEXT_COLUMN_AT[c]!, r);
          else duckdb.vector_assign_string_element_len(textV[c]!, r, bytes.subarray(offset, offset + length));
        }
      }
      copyTo(vectors[1]!, ordinals, n * 8);
      copyTo(vectors[4]!, spanOrdinals, n * 4);
      copyTo(vectors[10]!, startTimes, n * 8);
      copyTo(vectors[11]!, endTimes, n * 8);
      for (const [column, mask] of nulls) {
        const v = vectors[column]!;
        duckdb.vector_ensure_validity_writable(v);
        duckdb.copy_data_to_vector_validity(v, 0, mask.buffer as ArrayBuffer, 0, Math.ceil(n / 64) * 8);
      }
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return total;
}

/** Copies the first `byteCount` bytes of `values` into a vector's data. */
function copyTo(
  v: duckdb.Vector,
  values: BigInt64Array | BigUint64Array | Int32Array,
  byteCount: number,
): void {
  duckdb.copy_data_to_vector(v, 0, values.buffer as ArrayBuffer, values.byteOffset, byteCount);
}
