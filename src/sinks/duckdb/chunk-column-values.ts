import {
  DuckDBBlobValue,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  type DuckDBDataChunk,
  type DuckDBType,
} from '@duckdb/node-api';

/** A result cell as evalstream's outputs read it. */
export type ColumnValue = null | boolean | number | bigint | string | Uint8Array | object;

const NATIVE = new Set<DuckDBTypeId>([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.VARCHAR,
]);

/**
 * The values of one column of a result chunk: booleans, numbers, bigints (64/128-bit integers stay
 * exact), strings, `Uint8Array` for BLOBs; every other type (dates, decimals, lists, structs, ...)
 * as DuckDB's JSON form (strings for temporal/decimal values, arrays/objects for nested ones).
 *
 * @example
 * for await (const chunk of result) chunkColumnValues(chunk, 0, result.columnType(0));
 */
export function chunkColumnValues(chunk: DuckDBDataChunk, index: number, type: DuckDBType): ColumnValue[] {
  if (NATIVE.has(type.typeId)) {
    const vector = chunk.getColumnVector(index);
    const out: ColumnValue[] = new Array(chunk.rowCount);
    for (let r = 0; r < chunk.rowCount; r++) out[r] = vector.getItem(r) as ColumnValue;
    return out;
  }
  if (type.typeId === DuckDBTypeId.BLOB) {
    const vector = chunk.getColumnVector(index);
    const out: ColumnValue[] = new Array(chunk.rowCount);
    for (let r = 0; r < chunk.rowCount; r++) {
      const v = vector.getItem(r);
      out[r] = v instanceof DuckDBBlobValue ? v.bytes : null;
    }
    return out;
  }
  return chunk.convertColumnValues(index, JsonDuckDBValueConverter) as ColumnValue[];
}
