import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cache = new Map<string, string>();

function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('evalstream: cannot find the package directory');
    dir = up;
  }
  return dir;
}

/**
 * A file of the bundled browser code (`dist/client/`, written by `npm run build` from
 * `src/report/client`): `report-page.js`, `live-page.js` or `uplot.css`. Read once, then cached.
 * Throws a clear error when the package was not built.
 *
 * @example
 * const script = clientBundle('report-page.js');
 */
export function clientBundle(name: 'report-page.js' | 'live-page.js' | 'uplot.css'): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = join(packageRoot(), 'dist', 'client', name);
    if (!existsSync(file)) {
      throw new Error(`evalstream: ${file} is missing; build the package first (npm run build)`);
    }
    text = readFileSync(file, 'utf8');
    cache.set(name, text);
  }
  return text;
}
