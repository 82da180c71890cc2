import { DuckDBDataChunk, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { StoreTable } from './store-tables.js';

/** A cell as the row builders produce it; integers for BIGINT/UBIGINT columns may be numbers. */
export type StoreCell = string | number | boolean | bigint | null;

/** DuckDB's vector size: the most rows one data chunk holds. */
const CHUNK_ROWS = 2048;

/**
 * Rows of one store table buffered column by column in memory, appended to DuckDB in data chunks
 * through the appender by `appendTo` (the only blocking calls, made at batch boundaries).
 *
 * @example
 * const buffer = new TableBuffer(tableNamed('runs'));
 * buffer.push(['run-1', true, null, null]);
 * await buffer.appendTo(connection); // 1
 */
export class TableBuffer {
  readonly #columns: DuckDBValue[][];
  readonly #wide: boolean[];
  readonly #text: boolean[];
  #rows = 0;

  constructor(readonly table: StoreTable) {
    this.#columns = table.columns.map(() => []);
    this.#wide = table.columns.map((c) => /^U?BIGINT\b/.test(c.type));
    this.#text = table.columns.map((c) => /^(VARCHAR|JSON)\b/.test(c.type));
  }

  /** Rows buffered since the last `appendTo`. */
  get rowCount(): number {
    return this.#rows;
  }

  /** Buffers one row (cells in the table's column order). */
  push(row: readonly StoreCell[]): void {
    const columns = this.#columns;
    if (row.length !== columns.length) {
      throw new Error(`table ${this.table.name}: row has ${row.length} cells, expected ${columns.length}`);
    }
    for (let i = 0; i < row.length; i++) {
      const cell = row[i] as StoreCell;
      // DuckDB's setColumnValues takes only bigint for BIGINT/UBIGINT and only strings for text columns
      let value: DuckDBValue = cell;
      if (typeof cell === 'number' && this.#wide[i] === true) value = BigInt(cell);
      else if (cell !== null && typeof cell !== 'string' && this.#text[i] === true) value = String(cell);
      (columns[i] as DuckDBValue[]).push(value);
    }
    this.#rows++;
  }

  /** Appends every buffered row to the table in data chunks, then empties the buffer; returns the count. */
  async appendTo(connection: DuckDBConnection): Promise<number> {
    const total = this.#rows;
    if (total === 0) return 0;
    const appender = await connection.createAppender(this.table.name);
    try {
      const types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
      if (types.length !== this.#columns.length) {
        throw new Error(
          `table ${this.table.name} has ${types.length} columns, rows have ${this.#columns.length}`,
        );
      }
      for (let start = 0; start < total; start += CHUNK_ROWS) {
        const end = Math.min(start + CHUNK_ROWS, total);
        const chunk = DuckDBDataChunk.create(types, end - start);
        for (let c = 0; c < types.length; c++) chunk.setColumnValues(c, this.#columns[c]!.slice(start, end));
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
      for (const c of this.#columns) c.length = 0;
      this.#rows = 0;
    }
    return total;
  }

  /** Drops the buffered rows. */
  clear(): void {
    for (const c of this.#columns) c.length = 0;
    this.#rows = 0;
  }
}
