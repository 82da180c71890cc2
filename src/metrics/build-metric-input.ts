import type { JsonObject } from '../model/json-value.js';
import type { CandidateOutput, MetricInput } from '../model/metric.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import type { AgentOutput } from '../model/trial.js';

/**
 * The candidate of a trial with an output. Its `output_text` reads the output's when first read (an
 * OTLP output finds its final text only then); assigning it replaces the value.
 */
function candidateOf(
  output: AgentOutput,
  evidence: TrialItem['evidence'],
  metadata: JsonObject,
): CandidateOutput {
  let text: string | null | undefined;
  return {
    get output_text(): string | null {
      text ??= output.output_text ?? null;
      return text;
    },
    set output_text(value: string | null) {
      text = value;
    },
    response: output.response ?? null,
    trajectory: null,
    evidence,
    metadata,
  };
}

/**
 * What `computeScores` receives for one trial (spec §3.5). `candidate.metadata` is the trial metadata
 * overlaid by the output metadata (output wins), `{}` without an output; `candidate.evidence` is the
 * live evidence only when the trial has an output; `trajectory` is always null for agent-eval trials;
 * `row.data.trial.measurements` is the full measurements object.
 *
 * @example
 * const input = buildMetricInput(item, task, 0);
 * input.row.data.reference.expected; // the task's grader-only truth
 */
export function buildMetricInput(item: TrialItem, task: TaskSpec, rowIndex: number): MetricInput {
  const { trial } = item;
  const output = trial.output;
  const metadata: JsonObject = output === null ? {} : { ...trial.metadata, ...output.metadata };
  return {
    row: {
      row_index: rowIndex,
      data: {
        reference: task.reference,
        inputs: task.inputs,
        task: { id: task.id, intent: task.intent, metadata: task.metadata },
        trial: {
          id: trial.id,
          task_id: trial.task_id,
          status: trial.status,
          error: trial.error,
          measurements: { ...trial.measurements },
          metadata: trial.metadata,
        },
      },
    },
    candidate:
      output === null
        ? { output_text: null, response: null, trajectory: null, evidence: null, metadata }
        : candidateOf(output, item.evidence, metadata),
  };
}
