import { open, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { buildReportModel } from './build-report-model.js';
import { loadTrajectories } from './load-trajectories.js';
import type { ReportBundle } from './report-bundle.js';
import type { ReportOptions } from './report-options.js';
import { renderReportHtml } from './render-report-html.js';

/**
 * Writes the run's `report.html`: one self-contained file (no network), replaced atomically, and
 * resolves to its absolute path and size in bytes. Rejects only when the file cannot be written.
 *
 * @example
 * const { path, bytes } = await writeReport(bundle, 'runs/r1/report.html', { bundleDir: 'runs/r1' });
 */
export async function writeReport(
  bundle: ReportBundle,
  outPath: string,
  options: ReportOptions = {},
): Promise<{ path: string; bytes: number }> {
  const { byTrial, notes } = await loadTrajectories(bundle, options);
  const model = buildReportModel(bundle, {
    trajectories: byTrial,
    notes,
    ...(options.maxTextChars === undefined ? {} : { maxTextChars: options.maxTextChars }),
  });
  const path = resolve(outPath);
  const temp = `${path}.${process.pid}.tmp`;
  let bytes = 0;
  const handle = await open(temp, 'w');
  try {
    for (const chunk of renderReportHtml(model)) {
      const buffer = Buffer.from(chunk, 'utf8');
      bytes += buffer.length;
      await handle.write(buffer);
    }
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  return { path, bytes };
}
