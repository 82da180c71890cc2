import type { ReportBundle } from './report-bundle.js';
import type { ReportOptions } from './report-options.js';
import { reportModelOfBundle } from './report-model-of-bundle.js';
import { writeReportModel } from './write-report-model.js';

/**
 * Writes the `report.html` of a run held in memory: one self-contained file (no network), replaced
 * atomically, and resolves to its absolute path and size in bytes. Every trial gets a row; details and
 * trajectories are kept for the bounded selection of `options`. Rejects only when the file cannot be
 * written.
 *
 * @example
 * const { path, bytes } = await writeReport(bundle, 'runs/r1/report.html', { bundleDir: 'runs/r1' });
 */
export async function writeReport(
  bundle: ReportBundle,
  outPath: string,
  options: ReportOptions = {},
): Promise<{ path: string; bytes: number }> {
  return writeReportModel(await reportModelOfBundle(bundle, options), outPath);
}
