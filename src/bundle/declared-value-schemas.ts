import type { TaskSpec } from '../model/task.js';
import type { ValueSchemaLookup } from './to-wire.js';

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
    // by type, then output name: a lookup per output of every score builds no key string
    const byType = new Map<string, Map<string, string>>();
    for (const metric of task.metrics) {
      let byName = byType.get(metric.type);
      if (byName === undefined) byType.set(metric.type, (byName = new Map()));
      for (const output of metric.outputs) byName.set(output.name, output.value_schema);
    }
    lookup = (metricType, outputName) => byType.get(metricType)?.get(outputName);
    cache.set(task, lookup);
  }
  return lookup;
}
