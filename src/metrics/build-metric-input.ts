import type { JsonObject } from '../model/json-value.js';
import type { CandidateOutput, MetricInput } from '../model/metric.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import type { AgentOutput } from '../model/trial.js';

/** Where a candidate keeps its trial output (non-enumerable: invisible to equality and JSON). */
const OUTPUT = Symbol('agentOutput');

function setText(target: object, value: string | null): void {
  Object.defineProperty(target, 'output_text', {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * `candidate.output_text` read from the trial output when first read (an OTLP trial's final text is
 * computed on demand, so metrics that never read the text never pay for it); assigning replaces it.
 */
const OUTPUT_TEXT: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: { [OUTPUT]: AgentOutput }): string | null {
    const text = this[OUTPUT].output_text ?? null;
    setText(this, text);
    return text;
  },
  set(value: string | null): void {
    setText(this, value);
  },
};

/** The candidate of a trial with an output; its `output_text` is read when first read. */
function candidateOf(
  output: AgentOutput,
  evidence: TrialItem['evidence'],
  metadata: JsonObject,
): CandidateOutput {
  const c = {} as CandidateOutput;
  Object.defineProperty(c, 'output_text', OUTPUT_TEXT);
  c.response = output.response ?? null;
  c.trajectory = null;
  c.evidence = evidence;
  c.metadata = metadata;
  Object.defineProperty(c, OUTPUT, { value: output });
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
