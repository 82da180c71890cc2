import type { CompactTrajectory } from './report-data.js';
import type { Trial } from '../model/trial.js';

/**
 * How much of each trial the report embeds. Defaults keep a 100k-trial report around 20–40 MB.
 *
 * @example
 * await writeReport(bundle, 'report.html', { trajectories: 'none', maxTextChars: 1000 });
 */
export interface ReportOptions {
  /**
   * `auto` (default): embed trajectories until `maxTrajectoryBytes` is used up; `all`: no budget;
   * `none`: never.
   */
  trajectories?: 'auto' | 'all' | 'none';
  /** Budget of embedded trajectory JSON for `auto`, in bytes (default 16 MiB). */
  maxTrajectoryBytes?: number;
  /** Longest string kept from outputs, messages, tool arguments and results (default 4000 chars). */
  maxTextChars?: number;
  /** Directory that relative evidence refs resolve against (the bundle directory). */
  bundleDir?: string;
  /**
   * Turns a trial's evidence into a compact trajectory, replacing the built-in reader (which reads
   * inline or referenced ATIF). Return null when the trial has none.
   */
  trajectoryOf?: (trial: Trial) => Promise<CompactTrajectory | null>;
}
