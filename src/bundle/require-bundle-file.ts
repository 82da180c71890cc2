import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BundleReadError } from './bundle-read-error.js';

/**
 * Throws a `missing_file` `BundleReadError` when the bundle in `dir` has no file `name`.
 *
 * @example
 * requireBundleFile('runs/r1', 'scores.jsonl'); // throws "scores.jsonl: no scores.jsonl in /…/runs/r1" if absent
 */
export function requireBundleFile(dir: string, name: string): void {
  if (existsSync(join(dir, name))) return;
  throw BundleReadError.missingFile(name, `no ${name} in ${dir}`);
}
