import type { TaskSpec } from '../model/task.js';
import type { ValueSchemaLookup } from './score-to-wire.js';

const cache = new WeakMap<TaskSpec, ValueSchemaLookup>();

/**
 * The `value_schema` a task declares for each (metric type, output), as a lookup (cached per task).
 *
 * @example
 * declaredValueSchemas(task)('harbor_reward', 'reward'); // 'ContinuousScore'
 */
export function declaredValueSchemas(task: TaskSpec): ValueSchemaLookup {
  let lookup = cache.get(task);
  if (lookup === undefined) {
    const map = new Map<string, string>();
    for (const metric of task.metrics) {
      for (const output of metric.outputs) map.set(`${metric.type}\u0000${output.name}`, output.value_schema);
    }
    lookup = (metricType, outputName) => map.get(`${metricType}\u0000${outputName}`);
    cache.set(task, lookup);
  }
  return lookup;
}
