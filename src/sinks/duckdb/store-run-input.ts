import type { CandidateEvidence } from '../../evidence/candidate-evidence.js';
import type { JsonObject } from '../../model/json-value.js';
import type { ScoreRecord } from '../../model/score-record.js';
import type { TaskSpec } from '../../model/task.js';
import type { StoreTrial } from './store-rows.js';

/** A whole run to write into the store (a loaded bundle, or what `summarizeWithDuckDB` was given). */
export interface StoreRunInput {
  runId: string;
  /** Task specs in task-list order; null = the run has no task specs (summary discovers outputs). */
  tasks: readonly TaskSpec[] | null;
  /** Trials in trial order (full trials, or just `{id, error}` for the error rollup); may be async. */
  trials?: Iterable<StoreTrial> | AsyncIterable<StoreTrial> | undefined;
  /** Score records in SDK score order; may be async (e.g. streamed from `scores.jsonl`). */
  scores: Iterable<ScoreRecord> | AsyncIterable<ScoreRecord>;
  /** Run metadata (`metadata.json`), stored as JSON on the `runs` row. */
  metadata?: JsonObject | null | undefined;
  /**
   * Live evidence of a trial, to fill `tool_calls`/`spans` from its primary trace (e.g.
   * `(t) => t.evidence && new CandidateEvidence(t.evidence, { baseDir: bundleDir })`). Omitted = no
   * trace rows.
   */
  evidenceOf?: ((trial: StoreTrial) => CandidateEvidence | null) | undefined;
}
