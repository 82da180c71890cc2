import { openSync, readSync, closeSync, statSync } from 'node:fs';

const MAGIC = Buffer.from('DUCK', 'latin1');

/**
 * Whether `path` is a DuckDB database file (its header carries `DUCK` at byte 8), whatever its name.
 *
 * @example
 * isDuckDBFile('runs/all.duckdb'); // true
 */
export function isDuckDBFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(12);
      return readSync(fd, head, 0, 12, 0) === 12 && head.subarray(8, 12).equals(MAGIC);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
