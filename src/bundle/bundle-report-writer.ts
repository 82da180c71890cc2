import { join } from 'node:path';
import { ReportCollector } from '../report/report-collector.js';
import { reportWriterFor } from '../report/report-writer-for.js';
import { writeReportModel } from '../report/write-report-model.js';
import { BUNDLE_FILES } from './bundle-files.js';
import type { BundleFedReport, ReportWriter, StreamedReport } from './report-writer.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';

/**
 * The default `ReportWriter`: for a bundle on disk it streams the bundle's files once
 * (`reportWriterFor`, default options); fed in the stream (`stream`) or by a reader of the bundle
 * (`fromBundle`) it keeps the compact table and the bounded selection as trials pass
 * (`ReportCollector`, as `reportWriterFor` does) and writes `<bundleDir>/report.html` at the end.
 *
 * @example
 * await summarizeBundle(dir, { reportWriter: bundleReportWriter });
 */
export const bundleReportWriter: ReportWriter = Object.assign(
  (bundleDir: string, known?: { summary?: Summary }) =>
    reportWriterFor(bundleDir, known?.summary ? { summary: known.summary } : {}),
  {
    stream: () => {
      const collector = new ReportCollector();
      return {
        add: (scored: ScoredTrial) => collector.addScored(scored),
        addDiagnostic: (row: TrialDiagnosticRow) => collector.addDiagnostic(row),
        finish: (run: Parameters<StreamedReport['finish']>[0]) =>
          writeReportModel(collector.finish(run), join(run.bundleDir, BUNDLE_FILES.report)),
      };
    },
    fromBundle: (bundleDir: string, tasks: Parameters<NonNullable<ReportWriter['fromBundle']>>[1]) => {
      const collector = new ReportCollector({ bundleDir, tasks });
      const fed: BundleFedReport = {
        addTrial: async (trial) => {
          await collector.take(trial);
        },
        addScore: (score) => collector.addScore(score),
        addDiagnostic: (row) => collector.addDiagnostic(row),
        finish: (run) => writeReportModel(collector.finish(run), join(run.bundleDir, BUNDLE_FILES.report)),
      };
      return fed;
    },
  },
);
