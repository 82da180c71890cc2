import type { ReportModel } from './build-report-model.js';
import type { ReportBundle } from './report-bundle.js';
import { ReportCollector } from './report-collector.js';
import type { ReportOptions } from './report-options.js';

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
