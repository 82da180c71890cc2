import type { Metric } from '../model/metric.js';
import type { SemanticView } from '../model/task.js';

/**
 * The SDK's task-level view rule: every signal must name a metric type of the task and an output
 * that metric declares. Returns one message per bad signal (empty when all are valid).
 *
 * @example
 * checkViews({ q: { reducer: 'single', signals: [{ metric: 'm', output: 'x', weight: null }] } }, [m]);
 * // ["view 'q' signal 0: metric 'm' declares no output 'x' (outputs: score)"]
 */
export function checkViews(
  views: Readonly<Record<string, SemanticView>>,
  metrics: readonly Metric[],
): string[] {
  const problems: string[] = [];
  const byType = new Map(metrics.map((m) => [m.type, m]));
  for (const [name, view] of Object.entries(views)) {
    view.signals.forEach((signal, i) => {
      const metric = byType.get(signal.metric);
      if (metric === undefined) {
        problems.push(
          `view '${name}' signal ${i}: no metric '${signal.metric}' in this task (metrics: ${[...byType.keys()].join(', ') || 'none'})`,
        );
        return;
      }
      const outputs = metric.outputSpec().map((s) => s.name);
      if (!outputs.includes(signal.output)) {
        problems.push(
          `view '${name}' signal ${i}: metric '${signal.metric}' declares no output '${signal.output}' (outputs: ${outputs.join(', ')})`,
        );
      }
    });
  }
  return problems;
}
