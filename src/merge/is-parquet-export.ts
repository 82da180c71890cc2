import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Whether `dir` is a Parquet export of an evalstream store (`evalstream export --parquet DIR`): it
 * holds `runs/run_id=<id>/` partitions.
 *
 * @example
 * isParquetExport('out/parquet'); // true
 */
export function isParquetExport(dir: string): boolean {
  const runs = join(dir, 'runs');
  if (!existsSync(runs) || !statSync(runs).isDirectory()) return false;
  return readdirSync(runs).some((entry) => entry.startsWith('run_id='));
}
