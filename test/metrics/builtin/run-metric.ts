import { buildMetricInput } from '../../../src/metrics/build-metric-input.js';
import { validateMetricResult } from '../../../src/metrics/validate-metric-result.js';
import type { JsonObject } from '../../../src/model/json-value.js';
import type { Metric } from '../../../src/model/metric.js';
import type { Trial } from '../../../src/model/trial.js';
import { makeTask, makeTrialItem } from '../make-trial-item.js';

/** Runs a metric on an answer and a reference; returns outputs as name → value (validated against the spec). */
export async function runMetric(
  metric: Metric,
  answer: string | null,
  reference: JsonObject = {},
  trial: Partial<Trial> = {},
): Promise<Record<string, unknown>> {
  const item = makeTrialItem({ output: { output_text: answer, response: null, metadata: {} }, ...trial });
  const input = buildMetricInput(item, makeTask({ reference }), 0);
  const result = validateMetricResult(await metric.computeScores(input), metric.outputSpec());
  return Object.fromEntries(result.outputs.map((o) => [o.name, o.value]));
}
