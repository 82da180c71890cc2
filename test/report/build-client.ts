import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest global set-up: bundles the report and live pages' browser code (`npm run build` does the
 * same), so tests that render a page use the code of this checkout.
 */
export default function setup(): void {
  const script = join(import.meta.dirname, '..', '..', 'scripts', 'build-client.mjs');
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the page scripts failed: ${r.stderr}`);
}
