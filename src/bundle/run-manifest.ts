import type { JsonValue } from '../model/json-value.js';

/**
 * `run.json`: the run id and the artifact map. Older SDK versions also wrote `output_dir` and
 * `dashboard_path`; any other key read from an existing manifest is kept and written back.
 *
 * @example
 * const m: RunManifest = { run_id: 'agent-eval-20260715093012-1a2b3c4d', artifacts: { summary: 'summary.json' } };
 */
export interface RunManifest {
  run_id: string;
  artifacts: Record<string, string>;
  output_dir?: string | null;
  dashboard_path?: string | null;
  [key: string]: JsonValue | undefined;
}
