import type { JsonObject } from '../../src/model/json-value.js';
import type { TaskSpec } from '../../src/model/task.js';
import type { Trial, TrialMeasurements } from '../../src/model/trial.js';
import type { TrialItem } from '../../src/model/trial-item.js';

export const NO_MEASUREMENTS: TrialMeasurements = {
  prompt_tokens: null,
  completion_tokens: null,
  total_tokens: null,
  cache_creation_tokens: null,
  cache_read_tokens: null,
  runtime_sec: null,
  cost_usd: null,
};

/** A test trial item: completed, output text 'done', no evidence, unless overridden. */
export function makeTrialItem(trial: Partial<Trial> = {}, task: Partial<TaskSpec> | null = null): TrialItem {
  const full: Trial = {
    id: 't1',
    task_id: 'A',
    status: 'completed',
    output: { output_text: 'done', response: null, metadata: {} },
    evidence: null,
    error: null,
    measurements: NO_MEASUREMENTS,
    metadata: {},
    ...trial,
  };
  return {
    trial: full,
    evidence: null,
    task: task === null ? null : makeTask({ id: full.task_id, ...task }),
    origin: { file: 'test.jsonl', line: 1 },
  };
}

export function makeTask(task: Partial<TaskSpec> = {}): TaskSpec {
  return {
    id: 'A',
    intent: '',
    inputs: {},
    reference: {},
    metrics: [],
    views: {},
    metadata: {},
    ...task,
  };
}

export function withReference(reference: JsonObject): TaskSpec {
  return makeTask({ reference });
}
