import { fileURLToPath } from 'node:url';
import { CandidateEvidence } from '../../src/evidence/candidate-evidence.js';
import type { JsonValue } from '../../src/model/json-value.js';
import type { ScoreRecord, ScoreStatus } from '../../src/model/score-record.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import type { TaskSpec } from '../../src/model/task.js';
import type { Trial, TrialError } from '../../src/model/trial.js';

/** The sample traces copied into `test/fixtures` (each folder's README names their source). */
const SAMPLE_DIRS = {
  atif: fileURLToPath(new URL('../fixtures/atif/', import.meta.url)),
  otlp: fileURLToPath(new URL('../fixtures/otlp/samples/', import.meta.url)),
};

/** Task A: metric `judge` (reward continuous, ok boolean optional, note label optional) + `usage`. */
export const TASK_A: TaskSpec = {
  id: 'A',
  intent: 'add numbers',
  inputs: { instruction: 'add 3 and 4' },
  reference: { expected: 7 },
  metrics: [
    {
      type: 'judge',
      outputs: [
        { name: 'reward', description: null, value_schema: 'ContinuousScore', required: true },
        { name: 'ok', description: null, value_schema: 'BooleanValue', required: false },
        { name: 'note', description: 'why', value_schema: 'Label', required: false },
      ],
    },
    { type: 'usage', outputs: [{ name: 'tokens', description: null, value_schema: 'DiscreteScore' }] },
  ],
  views: { quality: { reducer: 'mean', signals: [{ metric: 'judge', output: 'reward', weight: null }] } },
  metadata: { split: 'dev' },
};

export function trial(id: string, taskId = 'A', error: TrialError | null = null): Trial {
  return {
    id,
    task_id: taskId,
    status: 'completed',
    output: { output_text: `answer of ${id}`, response: null, metadata: {} },
    evidence: null,
    error,
    measurements: {
      prompt_tokens: 80,
      completion_tokens: 40,
      total_tokens: 120,
      cache_creation_tokens: null,
      cache_read_tokens: 0,
      runtime_sec: 4.5,
      cost_usd: null,
    },
    metadata: {},
  };
}

export function score(
  trialId: string,
  metricType: string,
  outputs: [string, JsonValue][],
  status: ScoreStatus = 'completed',
  run = 'R1',
  taskId = 'A',
): ScoreRecord {
  return {
    id: `${run}:${taskId}:${trialId}:${metricType}`,
    run_id: run,
    task_id: taskId,
    trial_id: trialId,
    metric_type: metricType,
    status,
    outputs: outputs.map(([name, value]) => ({ name, value })),
    diagnostics: [],
    metadata: { row_index: 0, trial_metadata: {} },
  };
}

export function scored(
  t: Trial,
  scores: ScoreRecord[],
  evidence: CandidateEvidence | null = null,
): ScoredTrial {
  return { item: { trial: t, evidence, task: TASK_A, origin: { file: 'test' } }, scores, task: TASK_A };
}

/** Evidence whose primary trace is a reference sample file (`atif/...` or `otlp/...`). */
export function sampleEvidence(format: 'atif' | 'otlp', file: string): CandidateEvidence {
  return new CandidateEvidence(
    {
      descriptors: {
        trace: { kind: 'trace', format, ref: file, data: null, description: null, metadata: {} },
      },
      metadata: {},
    },
    { baseDir: SAMPLE_DIRS[format] },
  );
}

/** Three scored trials of run R1: t1, t2 and a repeated t1 (duplicate trial ids are kept). */
export function runR1(reward = 0.5): ScoredTrial[] {
  return [
    scored(trial('t1'), [
      score('t1', 'judge', [
        ['reward', reward],
        ['ok', true],
        ['note', 'fine'],
        ['reward', 9],
      ]),
      score('t1', 'usage', [['tokens', 120]]),
    ]),
    scored(trial('t2', 'A', { type: 'Timeout', message: null, traceback: null, occurred_at: null }), [
      score('t2', 'judge', [
        ['reward', NaN],
        ['extra', { deep: [1, 2] }],
      ]),
      score('t2', 'usage', [], 'failed'),
    ]),
    scored(trial('t1'), [score('t1', 'judge', [['reward', 1]]), score('t1', 'usage', [['tokens', 7]])]),
  ];
}
