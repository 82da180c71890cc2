import type { JsonObject } from '../model/json-value.js';
import type { CandidateOutput, MetricInput } from '../model/metric.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import type { AgentOutput } from '../model/trial.js';
import { lazyProperty } from '../util/lazy-property.js';

/** Defines a candidate's `output_text` as its trial output's, read when first read. */
const defineOutputText = lazyProperty('output_text', (output: AgentOutput) => output.output_text ?? null);

/**
 * The candidate of a trial with an output; its `output_text` is read when first read, or copied when
 * the output already holds it as a plain value (defining a lazy property costs ~1 µs; `serve`
 * settles the text before scoring, for its kept record).
 */
function candidateOf(
  output: AgentOutput,
  evidence: TrialItem['evidence'],
  metadata: JsonObject,
): CandidateOutput {
  const c = {} as CandidateOutput;
  const text = Object.getOwnPropertyDescriptor(output, 'output_text');
  if (text !== undefined && 'value' in text)
    c.output_text = (text.value as string | null | undefined) ?? null;
  else defineOutputText(c, output);
  c.response = output.response ?? null;
  c.trajectory = null;
  c.evidence = evidence;
  c.metadata = metadata;
  return c;
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
