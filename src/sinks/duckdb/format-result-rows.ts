import type { Writable } from 'node:stream';
import type { DuckDBResult } from '@duckdb/node-api';
import { chunkColumnValues, type ColumnValue } from './chunk-column-values.js';

/** How `formatResultRows` prints: a terminal table, a JSON array, or CSV. */
export type RowFormat = 'table' | 'json' | 'csv';

/** Options of `formatResultRows`. */
export interface FormatResultRowsOptions {
  /** Most rows to print (a table still counts the rest); default: all. */
  limit?: number | undefined;
  /** Widest table cell in characters before it is cut with `…`. Default 60. */
  maxCellWidth?: number | undefined;
}

/**
 * Streams a DuckDB result to `out` as text: `table` (aligned columns, `NULL`, cells cut at
 * `maxCellWidth`, a footer with the row count and how many were not shown), `json` (an array of row
 * objects; 64-bit integers as numbers when exact, else strings; NaN/±Infinity as strings; `JSON`
 * columns parsed), or `csv` (RFC 4180, header row, NULL as an empty field). Returns the rows printed.
 *
 * @example
 * await formatResultRows(await connection.stream('SELECT * FROM runs'), process.stdout, 'table', { limit: 20 });
 */
export async function formatResultRows(
  result: DuckDBResult,
  out: Writable,
  format: RowFormat,
  options: FormatResultRowsOptions = {},
): Promise<number> {
  const names = result.deduplicatedColumnNames();
  const types = result.columnTypes();
  const isJson = types.map((t) => t.alias === 'JSON');
  const limit = options.limit ?? Infinity;
  const write = async (text: string) => {
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
  };
  const tableRows: string[][] = [];
  let printed = 0;
  let total = 0;
  if (format === 'csv') await write(names.map(csvField).join(',') + '\r\n');
  if (format === 'json') await write('[');
  for await (const chunk of result) {
    total += chunk.rowCount;
    const take = Math.min(chunk.rowCount, limit - printed);
    if (take <= 0) {
      if (format === 'table') continue;
      break;
    }
    const columns = types.map((t, i) => chunkColumnValues(chunk, i, t));
    let text = '';
    for (let r = 0; r < take; r++) {
      const row = columns.map((c) => c[r] as ColumnValue);
      if (format === 'table') {
        tableRows.push(row.map((v) => tableCell(v, options.maxCellWidth ?? 60)));
      } else if (format === 'csv') {
        text += row.map((v) => csvField(plainText(v))).join(',') + '\r\n';
      } else {
        const obj: Record<string, unknown> = {};
        row.forEach((v, i) => {
          Object.defineProperty(obj, names[i] as string, {
            value: jsonCell(v, isJson[i] === true),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        });
        text += (printed + r === 0 ? '\n' : ',\n') + JSON.stringify(obj);
      }
    }
    printed += take;
    if (text !== '') await write(text);
  }
  if (format === 'json') await write(printed === 0 ? ']\n' : '\n]\n');
  if (format === 'table')
    await write(
      renderTable(
        names,
        types.map((t) => numericType(t.typeId)),
        tableRows,
        total,
      ),
    );
  return printed;
}

function numericType(typeId: number): boolean {
  // TINYINT..DOUBLE, HUGEINT, UHUGEINT, DECIMAL (DuckDBTypeId values).
  return (typeId >= 2 && typeId <= 11) || typeId === 16 || typeId === 32 || typeId === 19;
}

function renderTable(names: string[], numeric: boolean[], rows: string[][], total: number): string {
  // a loop, not Math.max(...rows): more rows than fit on the call stack as arguments are printed
  const widths = names.map((n, i) => {
    let w = n.length;
    for (const r of rows) w = Math.max(w, (r[i] as string).length);
    return w;
  });
  const pad = (s: string, i: number) =>
    numeric[i] === true ? s.padStart(widths[i] as number) : s.padEnd(widths[i] as number);
  const line = (cells: string[]) => cells.map(pad).join(' │ ').trimEnd();
  let text = `${line(names)}\n${widths.map((w) => '─'.repeat(w)).join('─┼─')}\n`;
  for (const r of rows) text += `${line(r)}\n`;
  const shown = rows.length;
  text +=
    shown === total
      ? `(${total} row${total === 1 ? '' : 's'})\n`
      : `(${total} rows, first ${shown} shown; use --limit N to see more)\n`;
  return text;
}

function tableCell(v: ColumnValue, width: number): string {
  const s = v === null ? 'NULL' : plainText(v).replace(/[\r\n\t]+/g, ' ');
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

function plainText(v: ColumnValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  return JSON.stringify(v);
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) || s.trim() !== s ? `"${s.replaceAll('"', '""')}"` : s;
}

function jsonCell(v: ColumnValue, isJsonColumn: boolean): unknown {
  if (typeof v === 'bigint') {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v.toString();
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (isJsonColumn && typeof v === 'string') {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }
  return v;
}
