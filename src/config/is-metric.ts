import type { Metric } from '../model/metric.js';

/**
 * Whether a value satisfies the metric protocol structurally: a non-empty string `type`, and
 * `outputSpec` and `computeScores` functions. No base class is needed.
 *
 * @example
 * isMetric({ type: 'm', outputSpec: () => [], computeScores: async () => ({ outputs: [] }) }); // true
 */
export function isMetric(value: unknown): value is Metric {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['type'] === 'string' &&
    v['type'].length > 0 &&
    typeof v['outputSpec'] === 'function' &&
    typeof v['computeScores'] === 'function'
  );
}
