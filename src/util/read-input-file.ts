import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Regular files up to this size are read synchronously. */
const SYNC_MAX_BYTES = 1 << 20;

/**
 * A whole input file. A small regular file is read synchronously: a trial of an agent benchmark is a
 * few files of a few KB, and reading one through `fs.promises` takes a thread-pool round trip for each
 * of open, stat, read and close, several times the cost of the read itself. Larger files, and
 * anything that is not a regular file, are read asynchronously. Errors are those of `fs` (`ENOENT`…).
 *
 * @example
 * const bytes = await readInputFile('runs/a.atif.json');
 */
export async function readInputFile(path: string): Promise<Buffer> {
  const st = statSync(path);
  return st.isFile() && st.size <= SYNC_MAX_BYTES ? readFileSync(path) : readFile(path);
}
