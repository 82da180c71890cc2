import { type Dirent, readdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Bytes of the files at or under `path` (what the progress bar and `score --engine auto --db` go by),
 * following symlinks, each directory once; what cannot be read counts 0 (reading the inputs reports
 * it). Synchronous: it runs before any input is read, where a thread-pool round trip per file only
 * made it slower (a job directory of many small trials).
 *
 * @example
 * inputSize('jobs/2026-01-05'); // bytes of every file in the job
 */
export function inputSize(path: string, seen = new Set<string>()): number {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (st.isFile()) return st.size;
  if (!st.isDirectory()) return 0;
  const id = `${st.dev}:${st.ino}`;
  if (seen.has(id)) return 0;
  seen.add(id);
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    const full = join(path, entry.name);
    if (!entry.isFile()) total += inputSize(full, seen);
    else
      try {
        total += statSync(full).size;
      } catch {
        // gone since it was listed
      }
  }
  return total;
}
