import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The newest modification time (ms) of the `.ts` files under `dir`: the benches run the built CLI
 * only when `dist/` is at least this new.
 */
export function newestTs(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.ts'))
      newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}
