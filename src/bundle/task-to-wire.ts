import type { TaskSpec } from '../model/task.js';
import { PyFloat } from '../pycompat/py-float.js';
import type { WireObject } from '../pycompat/wire-value.js';

/**
 * A task in its `tasks.jsonl` form (metrics as descriptors; view weights are floats; `required` is
 * written only when the descriptor carries it).
 *
 * @example
 * pythonJson(taskToWire(task)); // '{"id": "A", "inputs": {...}, ...}'
 */
export function taskToWire(task: TaskSpec): WireObject {
  return {
    id: task.id,
    intent: task.intent,
    inputs: task.inputs,
    reference: task.reference,
    metrics: task.metrics.map((metric) => ({
      type: metric.type,
      outputs: metric.outputs.map((o) => ({
        name: o.name,
        description: o.description,
        value_schema: o.value_schema,
        ...(o.required === undefined ? {} : { required: o.required }),
      })),
    })),
    views: Object.fromEntries(
      Object.entries(task.views).map(([name, view]) => [
        name,
        {
          reducer: view.reducer,
          signals: view.signals.map((s) => ({
            metric: s.metric,
            output: s.output,
            weight: s.weight === null ? null : new PyFloat(s.weight),
          })),
        },
      ]),
    ),
    metadata: task.metadata,
  };
}
