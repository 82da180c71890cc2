import type { RunMetadata } from './run-metadata.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';

/** The finished run a fed report is written for, once the bundle's files are in place. */
interface FinishedRun {
  bundleDir: string;
  runId: string;
  metadata: RunMetadata | null;
  tasks: readonly TaskSpec[];
  summary: Summary;
}

/** A report fed in the stream: each scored trial as it passes, then the finished run. */
export interface StreamedReport {
  /** Takes one scored trial while it is in hand (its evidence still attached). */
  add(scored: ScoredTrial): Promise<void>;
  /** Takes one problem of the input that attaches to no trial (ids null), after every trial. */
  addDiagnostic(row: TrialDiagnosticRow): void;
  /** Writes `<bundleDir>/report.html` once the bundle's files are in place. */
  finish(run: FinishedRun & { metadata: RunMetadata }): Promise<{ path: string; bytes: number }>;
}

/**
 * A report fed by a reader of a bundle on disk while it reads the bundle's files once: every trial row
 * in file order, then every score row, then every diagnostic row, then the finished run.
 */
export interface BundleFedReport {
  /** Takes one trial row (its trajectory is read from the bundle only when the trial is kept). */
  addTrial(trial: Trial): Promise<void>;
  /** Takes one score row, after every trial row. */
  addScore(score: ScoreRecord): void;
  /** Takes one row of `diagnostics.jsonl`, after every score row. */
  addDiagnostic(row: TrialDiagnosticRow): void;
  /** Writes `<bundleDir>/report.html` once the bundle's files are in place. */
  finish(run: FinishedRun): Promise<{ path: string; bytes: number }>;
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
  /**
   * Starts a report fed by a reader of the bundle in `bundleDir` (optional; `summarize` uses it so
   * the bundle is read once): relative evidence refs resolve against `bundleDir`.
   */
  fromBundle?: (bundleDir: string, tasks: readonly TaskSpec[] | null) => BundleFedReport;
}
