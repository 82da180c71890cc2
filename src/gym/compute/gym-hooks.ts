import type { JsonObject } from '../../model/json-value.js';

/**
 * The two customisation hooks of a Gym resources server, as TypeScript functions (a hooks module
 * exports them as `computeMetrics` / `getKeyMetrics`). `computeMetrics` receives one list per task
 * (ascending task index) of that task's cut-down rows in request order and returns metrics merged into
 * `agent_metrics`; a `per_task_metrics` list of objects with `_ng_task_index` is copied into the
 * matching group entries. `getKeyMetrics` picks the headline numbers (default: every `mean/*`).
 */
export interface GymHooks {
  computeMetrics?: (tasks: JsonObject[][]) => Record<string, unknown> | Promise<Record<string, unknown>>;
  getKeyMetrics?: (agentMetrics: JsonObject) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Built-in pass@k hook (Gym's `compute_pass_majority_metrics` + `add_avg_sample_std_dev`). */
  passAtK?: { answerKey?: string | undefined } | undefined;
}
