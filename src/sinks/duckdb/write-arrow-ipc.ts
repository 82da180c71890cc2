import type { Writable } from 'node:stream';
import {
  RecordBatchFileWriter,
  RecordBatchStreamWriter,
  Binary,
  Bool,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  vectorFromArray,
  type DataType,
} from 'apache-arrow';
import { type DuckDBResult, DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { chunkColumnValues, type ColumnValue } from './chunk-column-values.js';

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

/** A DuckDB result as Arrow: its schema, and its chunks converted to record batches on demand. */
export interface ArrowConversion {
  readonly schema: Schema;
  batches(): AsyncGenerator<RecordBatch>;
}

/**
 * Converts a (streaming) DuckDB result to Arrow record batches, one per DuckDB chunk. Types map to
 * their Arrow twins (integers of every width, floats, booleans, UTF-8, binary); 128-bit integers,
 * decimals, temporal and nested values become UTF-8 text (DuckDB's own text / JSON form), so cast in
 * SQL when a number is wanted (`sum(x)::BIGINT`).
 *
 * @example
 * const { schema, batches } = duckdbResultToArrow(await connection.stream('SELECT * FROM scores'));
 * for await (const batch of batches()) console.log(batch.numRows);
 */
export function duckdbResultToArrow(result: DuckDBResult): ArrowConversion {
  const names = result.deduplicatedColumnNames();
  const duckTypes = result.columnTypes();
  const arrowTypes = duckTypes.map(arrowTypeOf);
  const schema = new Schema(names.map((name, i) => new Field(name, arrowTypes[i] as DataType, true)));
  return {
    schema,
    async *batches() {
      for await (const chunk of result) {
        if (chunk.rowCount === 0) continue;
        const children = duckTypes.map((type, i) => {
          const arrowType = arrowTypes[i] as DataType;
          const values = toArrowValues(chunkColumnValues(chunk, i, type), type, arrowType);
          return vectorFromArray(values, arrowType).data[0]!;
        });
        const data = makeData({
          type: new Struct(schema.fields),
          length: chunk.rowCount,
          nullCount: 0,
          children,
        });
        yield new RecordBatch(schema, data);
      }
    },
  };
}

function arrowTypeOf(type: DuckDBType): DataType {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return new Bool();
    case DuckDBTypeId.TINYINT:
      return new Int8();
    case DuckDBTypeId.SMALLINT:
      return new Int16();
    case DuckDBTypeId.INTEGER:
      return new Int32();
    case DuckDBTypeId.BIGINT:
      return new Int64();
    case DuckDBTypeId.UTINYINT:
      return new Uint8();
    case DuckDBTypeId.USMALLINT:
      return new Uint16();
    case DuckDBTypeId.UINTEGER:
      return new Uint32();
    case DuckDBTypeId.UBIGINT:
      return new Uint64();
    case DuckDBTypeId.FLOAT:
      return new Float32();
    case DuckDBTypeId.DOUBLE:
      return new Float64();
    case DuckDBTypeId.BLOB:
      return new Binary();
    default:
      return new Utf8();
  }
}

function toArrowValues(values: ColumnValue[], type: DuckDBType, arrowType: DataType): unknown[] {
  if (!(arrowType instanceof Utf8)) return values;
  if (type.typeId === DuckDBTypeId.VARCHAR) return values;
  return values.map((v) =>
    v === null ? null : typeof v === 'string' ? v : typeof v === 'bigint' ? v.toString() : JSON.stringify(v),
  );
}
