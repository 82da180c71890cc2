import type { ScoreRecord } from '../model/score-record.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import type { RunManifest } from './run-manifest.js';
import type { RunMetadata } from './run-metadata.js';

/**
 * A whole run bundle in memory (for small bundles; big ones stream with `readScoreRows` /
 * `readTrialRows`). `null` = the file is absent. Trials carry resolved (absolute) evidence refs.
 *
 * @example
 * const bundle = await readBundle('examples/sparse-run');
 * bundle.summary?.score_count;
 */
export interface RunBundle {
  /** Directory the bundle was read from (evidence refs resolve there), or null for one built in memory. */
  dir: string | null;
  manifest: RunManifest;
  metadata: RunMetadata | null;
  tasks: TaskSpec[] | null;
  trials: Trial[] | null;
  scores: ScoreRecord[];
  summary: Summary | null;
  /** `diagnostics.jsonl`: the trials' input diagnostics; absent or null: the bundle has none. */
  diagnostics?: TrialDiagnosticRow[] | null;
}
