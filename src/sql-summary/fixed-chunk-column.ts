import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';

/** The typed arrays `fixedChunkColumn` reads, by the DuckDB type of the column. */
interface FixedArrays {
  /** DOUBLE */
  float64: Float64Array;
  /** INTEGER */
  int32: Int32Array;
  /** BOOLEAN, UTINYINT */
  uint8: Uint8Array;
}

const MAKE = {
  float64: (bytes: ArrayBuffer) => new Float64Array(bytes),
  int32: (bytes: ArrayBuffer) => new Int32Array(bytes),
  uint8: (bytes: ArrayBuffer) => new Uint8Array(bytes),
} as const;

const WIDTH = { float64: 8, int32: 4, uint8: 1 } as const;

/**
 * A copy of one fixed-width column of a result chunk as a typed array, read with one call (no value
 * per cell). The column must have the given width and no NULLs the caller reads (a NULL cell holds
 * an unspecified value): `coalesce` them in the SQL.
 *
 * @example
 * for await (const chunk of await connection.stream('SELECT 1.5::DOUBLE')) fixedChunkColumn(chunk, 0, 'float64'); // Float64Array [1.5]
 */
export function fixedChunkColumn<K extends keyof FixedArrays>(
  chunk: DuckDBDataChunk,
  column: number,
  kind: K,
): FixedArrays[K] {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const bytes = duckdb.vector_get_data(vector, chunk.rowCount * WIDTH[kind]);
  // copied: the chunk's memory is DuckDB's and goes away with the chunk
  return MAKE[kind](bytes.slice().buffer) as FixedArrays[K];
}
