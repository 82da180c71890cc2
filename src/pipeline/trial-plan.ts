import type { Metric } from '../model/metric.js';
import type { TaskSpec } from '../model/task.js';

/** How one trial is scored: its task as scored (spec + applied metric descriptors + views), the metric objects, and the task's row index. */
export interface TrialPlan {
  task: TaskSpec;
  metrics: readonly Metric[];
  rowIndex: number;
}
