import type { RunMetadata } from './run-metadata.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';

/** A report fed in the stream: each scored trial as it passes, then the finished run. */
export interface StreamedReport {
  /** Takes one scored trial while it is in hand (its evidence still attached). */
  add(scored: ScoredTrial): Promise<void>;
  /** Writes `<bundleDir>/report.html` once the bundle's files are in place. */
  finish(run: {
    bundleDir: string;
    runId: string;
    metadata: RunMetadata;
    tasks: readonly TaskSpec[];
    summary: Summary;
  }): Promise<{ path: string; bytes: number }>;
}

/**
 * Writes `report.html` into a finished bundle directory and says where and how big it is (null when
 * it wrote nothing). Writers of a bundle that is on disk (`summarize`, `writeBundle`) call it after
 * the data files are in place, passing the summary when they have it; a writer that sees trials pass
 * (`toRunBundle`) uses `stream` when present, so nothing is read back. `--no-report` passes none.
 *
 * @example
 * const reportWriter: ReportWriter = async (dir) => ({ path: join(dir, 'report.html'), bytes: await render(dir) });
 */
export interface ReportWriter {
  (bundleDir: string, known?: { summary?: Summary }): Promise<{ path: string; bytes: number } | null>;
  /** Starts a report fed in the stream (optional). */
  stream?: () => StreamedReport;
}
