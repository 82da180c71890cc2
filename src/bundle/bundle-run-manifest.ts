import { BUNDLE_FILES } from './bundle-files.js';

/**
 * The `run.json` evalstream writes for a bundle it builds: the run id and the artifact map
 * (`tasks` only when the bundle has a `tasks.jsonl`).
 *
 * @example
 * pythonJson(bundleRunManifest('R'), { indent: 2 }); // '{\n  "artifacts": {...},\n  "run_id": "R"\n}'
 */
export function bundleRunManifest(
  runId: string,
  withTasks = true,
): { run_id: string; artifacts: Record<string, string> } {
  return {
    run_id: runId,
    artifacts: {
      metadata: BUNDLE_FILES.metadata,
      ...(withTasks ? { tasks: BUNDLE_FILES.tasks } : {}),
      trials: BUNDLE_FILES.trials,
      scores: BUNDLE_FILES.scores,
      summary: BUNDLE_FILES.summary,
    },
  };
}
