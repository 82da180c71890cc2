import { StagedBundleDir } from '../bundle/staged-bundle-dir.js';
import type { Summary } from '../model/summary.js';
import { STATS_FILE_NAME } from './stats-file-name.js';
import { statsJsonText } from './stats-json-text.js';

/**
 * Writes `stats.json` (the intervals of every aggregate) into a bundle directory: staged, then renamed
 * into place, so a failure never leaves a half-written file.
 *
 * @example
 * await writeStatsJson('runs/r1', result.summary);
 */
export async function writeStatsJson(dir: string, summary: Summary): Promise<void> {
  const staged = await StagedBundleDir.open(dir);
  try {
    await staged.writeText(STATS_FILE_NAME, statsJsonText(summary));
    await staged.commit([STATS_FILE_NAME]);
  } catch (error) {
    await staged.abort();
    throw error;
  }
}
