import type { RunMetadata } from '../bundle/run-metadata.js';
import type { JsonObject } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';

/**
 * A loaded run as the report reads it: the run id, `metadata.json` (labels, target, timings; read
 * leniently because SDK versions differ), and the bundle's tasks, trials, scores and summary.
 *
 * @example
 * const bundle: ReportBundle = { runId: 'r1', metadata: null, tasks: [], trials: [], scores: [], summary };
 */
export interface ReportBundle {
  runId: string;
  metadata: RunMetadata | JsonObject | null;
  tasks: readonly TaskSpec[];
  trials: readonly Trial[];
  scores: readonly ScoreRecord[];
  summary: Summary;
  /** The trials' input diagnostics (`diagnostics.jsonl`), matched to trials by task and trial id. */
  diagnostics?: readonly TrialDiagnosticRow[] | null;
}
