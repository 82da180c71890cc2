/**
 * How much of each trial the report embeds. Every trial has a row in the table; the detail (output,
 * error, scores, metadata, trajectory) is kept for a bounded selection: every failed or errored trial
 * up to `maxFailedTrials`, then a deterministic sample of `sampleTrials` others.
 *
 * @example
 * await writeReport(bundle, 'report.html', { trajectories: 'none', maxTextChars: 1000 });
 */
export interface ReportOptions {
  /**
   * `auto` (default): the bounded selection, at most `maxTrajectoryBytes` of trajectories; `all`: the
   * detail and trajectory of every trial (memory and file size grow with the run); `none`: the
   * selection without trajectories.
   */
  trajectories?: 'auto' | 'all' | 'none';
  /** Failed or errored trials whose detail is kept, first come (default 200). */
  maxFailedTrials?: number;
  /** Other trials kept as a deterministic sample (default 100). */
  sampleTrials?: number;
  /** Budget of embedded trajectory JSON for `auto`, in bytes (default 16 MiB). */
  maxTrajectoryBytes?: number;
  /** Longest string kept from outputs, messages, tool arguments and results (default 4000 chars). */
  maxTextChars?: number;
  /** Directory that relative evidence refs resolve against (the bundle directory). */
  bundleDir?: string;
}
