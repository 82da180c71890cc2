import { reportWriterFor } from '../report/report-writer-for.js';
import type { ReportWriter } from './report-writer.js';

/**
 * The default `ReportWriter`: renders `<bundleDir>/report.html` from the finished bundle on disk
 * (`reportWriterFor` of `src/report`, default options).
 *
 * @example
 * await summarizeBundle(dir, { reportWriter: bundleReportWriter });
 */
export const bundleReportWriter: ReportWriter = (bundleDir) => reportWriterFor(bundleDir);
