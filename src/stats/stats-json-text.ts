import type { Summary } from '../model/summary.js';
import { bundleStats } from './bundle-stats.js';

/**
 * The text of `stats.json` for a summary: {@link bundleStats} as indented JSON with a final newline
 * (non-finite numbers become null).
 *
 * @example
 * await writeFile(join(dir, 'stats.json'), statsJsonText(summary));
 */
export function statsJsonText(summary: Summary): string {
  return JSON.stringify(bundleStats(summary), null, 2) + '\n';
}
