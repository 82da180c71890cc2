import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest global set-up: bundles the CLI (`dist/cli/`, what `bin/evalstream.js` runs; `npm run build`
 * does the same), so tests that spawn the installed CLI run the code of this checkout.
 */
export default function setup(): void {
  const script = join(import.meta.dirname, '..', '..', 'scripts', 'build-cli.mjs');
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundling the CLI failed: ${r.stderr}`);
}
