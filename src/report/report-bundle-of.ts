import type { RunBundle } from '../bundle/run-bundle.js';
import { buildSummary } from '../summary/build-summary.js';
import type { ReportBundle } from './report-bundle.js';

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
