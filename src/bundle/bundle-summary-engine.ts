import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import type { TaskValueFloatLookup } from './to-wire.js';

/** What a bundle summary engine gets: a run's files, streamed (each iterable is read once). */
export interface BundleSummaryInput {
  /** Directory the run's evidence refs resolve against (the bundle, or its staging dir). */
  dir: string;
  /** The run id when already known (`run.json`, the sink's), else null (use the first score's). */
  runId: string | null;
  /** Task specs in task-list order; null = no task specs (`tasks.jsonl` absent). */
  tasks: readonly TaskSpec[] | null;
  /** Score rows in file (SDK) order, in batches, with the text each row was parsed from. */
  scoreBatches: AsyncIterable<{ rows: readonly ScoreRecord[]; texts: readonly string[] }>;
  /** Trials in file order (full rows, or just id + error for the error rollup). */
  trials: AsyncIterable<Pick<Trial, 'id' | 'error'> & Partial<Trial>>;
  /**
   * The JSONL files behind `scoreBatches` / `trials` (`trials: null` = trials come from `trials`
   * only), for engines that read the files themselves (DuckDB's JSON reader); absent = use the
   * iterables.
   */
  files?: { scores: string; trials: string | null } | undefined;
  /** Runner-contributed aggregates, appended unchanged. */
  extraScores: readonly AggregateScore[];
}

/**
 * Computes a bundle's summary instead of the in-memory `SummaryAccumulator` (e.g. in DuckDB SQL,
 * `--engine duckdb`), returning what `summaryJsonBytes` needs to write `summary.json`.
 *
 * @example
 * await summarizeBundle(dir, { summaryEngine: async (input) => mySummary(input) });
 */
export type BundleSummaryEngine = (input: BundleSummaryInput) => Promise<{
  summary: Summary;
  isFloat: TaskValueFloatLookup;
  /** The run id the engine stored the run under (names the run when `run.json` does not). */
  runId?: string | undefined;
}>;
