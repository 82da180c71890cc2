import type { RunBundle } from '../bundle/run-bundle.js';
import type { RunMetadata } from '../bundle/run-metadata.js';
import type { JsonObject } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import { buildSummary } from '../summary/build-summary.js';
import type { ReportModel } from './build-report-model.js';
import { ReportCollector, type ReportOptions } from './report-collector.js';
import { writeReportModel } from './write-report-model.js';

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

/**
 * The report's view of a loaded run bundle (`readBundle`). A bundle without `summary.json` gets one
 * computed from its scores, tasks and trials (`buildSummary`), as `evalstream summarize` would.
 *
 * @example
 * const bundle = reportBundleOf(await readBundle('runs/r1'));
 */
export function reportBundleOf(run: RunBundle): ReportBundle {
  const tasks = run.tasks ?? [];
  const trials = run.trials ?? [];
  return {
    runId: run.manifest.run_id,
    metadata: run.metadata,
    tasks,
    trials,
    scores: run.scores,
    diagnostics: run.diagnostics ?? null,
    summary:
      run.summary ??
      buildSummary({ scores: run.scores, tasks: run.tasks, ...(run.trials === null ? {} : { trials }) }),
  };
}

/**
 * The report model of a run held in memory: its trials, then its scores, go through a
 * `ReportCollector` (the same bounds as a streamed report); trajectories are read for the kept trials
 * only, relative refs against `options.bundleDir`.
 *
 * @example
 * const { data } = await reportModelOfBundle(bundle);
 */
export async function reportModelOfBundle(
  bundle: ReportBundle,
  options: ReportOptions = {},
): Promise<ReportModel> {
  const collector = new ReportCollector({ ...options, tasks: bundle.tasks });
  for (const trial of bundle.trials) await collector.take(trial);
  for (const score of bundle.scores) collector.addScore(score);
  for (const d of bundle.diagnostics ?? []) collector.addDiagnostic(d);
  return collector.finish({
    runId: bundle.runId,
    metadata: bundle.metadata,
    summary: bundle.summary,
    tasks: bundle.tasks,
  });
}

/**
 * Writes the `report.html` of a run held in memory: one self-contained file (no network), replaced
 * atomically, and resolves to its absolute path and size in bytes. Every trial gets a row; details and
 * trajectories are kept for the bounded selection of `options`. Rejects only when the file cannot be
 * written.
 *
 * @example
 * const { path, bytes } = await writeReport(bundle, 'runs/r1/report.html', { bundleDir: 'runs/r1' });
 */
export async function writeReport(
  bundle: ReportBundle,
  outPath: string,
  options: ReportOptions = {},
): Promise<{ path: string; bytes: number }> {
  return writeReportModel(await reportModelOfBundle(bundle, options), outPath);
}
