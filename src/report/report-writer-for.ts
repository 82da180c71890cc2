import { join } from 'node:path';
import { readBundle } from '../bundle/read-bundle.js';
import { reportBundleOf } from './report-bundle-of.js';
import type { ReportOptions } from './report-options.js';
import { writeReport } from './write-report.js';

/** Options of {@link reportWriterFor}: where to write, and what to embed. */
export interface ReportWriterForOptions extends ReportOptions {
  /** Output file; default `<bundleDir>/report.html`. */
  outPath?: string;
}

/**
 * Rebuilds `report.html` of a run bundle on disk (evalstream's or the SDK's): reads it with
 * `readBundle`, resolves evidence refs against the bundle, writes the report and resolves to its path
 * and size. Shaped as the bundle writers' `ReportWriter` seam, so it can be passed as `reportWriter`.
 * Rejects with `BundleReadError` for an unreadable bundle.
 *
 * @example
 * const { path, bytes } = (await reportWriterFor('runs/r1'))!;
 * await writeBundle(dir, data, { reportWriter: reportWriterFor });
 */
export async function reportWriterFor(
  bundleDir: string,
  options: ReportWriterForOptions = {},
): Promise<{ path: string; bytes: number } | null> {
  const run = await readBundle(bundleDir);
  const { outPath, ...reportOptions } = options;
  return writeReport(reportBundleOf(run), outPath ?? join(bundleDir, 'report.html'), {
    bundleDir: run.dir ?? bundleDir,
    ...reportOptions,
  });
}
