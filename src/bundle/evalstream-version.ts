import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/**
 * The version of the installed evalstream package (read once from its `package.json`, found by
 * walking up from this module, so it works from `src/` and from `dist/src/`).
 *
 * @example
 * `evalstream ${evalstreamVersion()}`; // 'evalstream 0.1.0'
 */
export function evalstreamVersion(): string {
  if (cached !== null) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'evalstream' && typeof pkg.version === 'string') return (cached = pkg.version);
    }
    const parent = dirname(dir);
    if (parent === dir) return (cached = '0.0.0');
    dir = parent;
  }
}
