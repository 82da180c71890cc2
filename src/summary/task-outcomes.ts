import type { Summary, TaskValueRecord } from '../model/summary.js';
import { compareCodePoints } from '../pycompat/compare-code-points.js';

/** Every trial's value at one task under one `<type>.<output>`. */
export interface PerTaskOutcome {
  metric_name: string;
  trials: TaskValueRecord[];
}

/** One task's values across every metric output that measured it. */
export interface PerTaskOutcomes {
  task_id: string;
  outcomes: PerTaskOutcome[];
}

/**
 * `summary.task_metric_values` as a list sorted by task id then metric name (code-point order). With
 * `metricName`, only that key is kept and tasks lacking the key are dropped (tasks with the key and an
 * empty list stay).
 *
 * @example
 * taskOutcomes(summary, 'harbor_reward.reward'); // [{ task_id: 'A', outcomes: [{ metric_name: 'harbor_reward.reward', trials: [...] }] }]
 */
export function taskOutcomes(
  summary: Pick<Summary, 'task_metric_values'>,
  metricName?: string,
): PerTaskOutcomes[] {
  const result: PerTaskOutcomes[] = [];
  const taskIds = Object.keys(summary.task_metric_values).sort(compareCodePoints);
  for (const taskId of taskIds) {
    const byKey = summary.task_metric_values[taskId] ?? {};
    const keys = Object.keys(byKey).sort(compareCodePoints);
    const outcomes: PerTaskOutcome[] = [];
    for (const key of keys) {
      if (metricName !== undefined && key !== metricName) continue;
      outcomes.push({ metric_name: key, trials: [...(byKey[key] ?? [])] });
    }
    if (metricName === undefined || outcomes.length > 0) result.push({ task_id: taskId, outcomes });
  }
  return result;
}
