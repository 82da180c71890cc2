import duckdb from '@duckdb/node-bindings';
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';

type Fixed = BigInt64Array | BigUint64Array | Int32Array | Float64Array | Uint8Array;

/** Typed-array constructors of the fixed-width types written directly (others go through node-api). */
const FIXED: Partial<Record<DuckDBTypeId, (n: number) => Fixed>> = {
  [DuckDBTypeId.BIGINT]: (n) => new BigInt64Array(n),
  [DuckDBTypeId.UBIGINT]: (n) => new BigUint64Array(n),
  [DuckDBTypeId.INTEGER]: (n) => new Int32Array(n),
  [DuckDBTypeId.DOUBLE]: (n) => new Float64Array(n),
  [DuckDBTypeId.BOOLEAN]: (n) => new Uint8Array(n),
};

/**
 * Writes `values[start..end)` into column `column` of a data chunk sized `end - start` rows. VARCHAR
 * (and JSON) cells are assigned one N-API call each, fixed-width columns (BIGINT, UBIGINT, INTEGER,
 * DOUBLE, BOOLEAN) and their NULL bitmask are filled in JavaScript and copied in one call; any other
 * type goes through node-api's `setColumnValues`.
 *
 * @example
 * const chunk = DuckDBDataChunk.create(types, 2);
 * writeChunkColumn(chunk, 0, VARCHAR, ['a', null], 0, 2);
 */
export function writeChunkColumn(
  chunk: DuckDBDataChunk,
  column: number,
  type: DuckDBType,
  values: readonly DuckDBValue[],
  start: number,
  end: number,
): void {
  const n = end - start;
  const id = type.typeId;
  const make = FIXED[id];
  if (id !== DuckDBTypeId.VARCHAR && make === undefined) {
    chunk.setColumnValues(column, values.slice(start, end));
    return;
  }
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  let mask: BigUint64Array | null = null;
  const fixed = make === undefined ? null : make(n);
  for (let r = 0; r < n; r++) {
    const cell = values[start + r];
    if (cell === null || cell === undefined) {
      mask ??= new BigUint64Array(Math.ceil(n / 64)).fill(0xffffffffffffffffn);
      mask[r >> 6]! &= ~(1n << BigInt(r & 63));
    } else if (fixed === null) {
      duckdb.vector_assign_string_element(vector, r, typeof cell === 'string' ? cell : String(cell));
    } else if (fixed instanceof BigInt64Array || fixed instanceof BigUint64Array) {
      fixed[r] = typeof cell === 'bigint' ? cell : BigInt(cell as number);
    } else if (fixed instanceof Uint8Array) {
      fixed[r] = cell === true ? 1 : 0;
    } else {
      fixed[r] = cell as number;
    }
  }
  if (fixed !== null) {
    duckdb.copy_data_to_vector(vector, 0, fixed.buffer as ArrayBuffer, 0, fixed.byteLength);
  }
  if (mask !== null) {
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer as ArrayBuffer, 0, mask.byteLength);
  }
}
