import { join } from 'node:path';
import type { JsonObject } from '../model/json-value.js';
import { writeReport } from '../report/write-report.js';
import { BUNDLE_FILES } from './bundle-files.js';
import { readBundle } from './read-bundle.js';
import type { ReportWriter } from './report-writer.js';

/**
 * The default `ReportWriter`: loads the finished bundle and renders its `report.html` with
 * `writeReport` (whole bundle in memory, as the report needs every score).
 *
 * @example
 * await summarizeBundle(dir, { reportWriter: bundleReportWriter });
 */
export const bundleReportWriter: ReportWriter = async (bundleDir) => {
  const bundle = await readBundle(bundleDir);
  if (bundle.summary === null) return null;
  return writeReport(
    {
      runId: bundle.manifest.run_id,
      metadata: bundle.metadata as unknown as JsonObject | null,
      tasks: bundle.tasks ?? [],
      trials: bundle.trials ?? [],
      scores: bundle.scores,
      summary: bundle.summary,
    },
    join(bundleDir, BUNDLE_FILES.report),
    { bundleDir },
  );
};
