import { readdir } from 'node:fs/promises';
import { InputError } from './input-error.js';

/**
 * The entries of a Harbor job directory that may be trial directories (directories and symbolic
 * links), in name order (byte order of the names): the order `fromHarborJob` reads them in.
 *
 * @example
 * await listHarborEntries('jobs/2026-01-05'); // ['hello-world__a1', 'hello-world__b2']
 */
export async function listHarborEntries(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new InputError(`cannot read Harbor job directory: ${(error as Error).message}`, { file: dir });
  }
  return entries
    .filter((e) => e.isDirectory() || e.isSymbolicLink())
    .map((e) => e.name)
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
