/**
 * Generates `examples/sparse-run/`: the spec §9 worked example (task A) plus two more tasks that
 * show a boolean/continuous pair with a dead trial (B) and a label/discrete judge with a metric
 * failure and a partial trial (C), each trial with a small ATIF trace as evidence. Written through
 * `toRunBundle` with a fixed clock, so it is byte-for-byte reproducible:
 *
 *   npx tsx test/bundle/sparse-run-example.ts examples/sparse-run
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonObject } from '../../src/model/json-value.js';
import type { MetricOutput, ScoreRecord } from '../../src/model/score-record.js';
import type { TaskSpec } from '../../src/model/task.js';
import type { Trial, TrialError, TrialStatus } from '../../src/model/trial.js';
import { toRunBundle } from '../../src/sinks/to-run-bundle.js';

export const EXAMPLE_RUN_ID = 'agent-eval-20260715093012-1a2b3c4d';

const TASKS: TaskSpec[] = [
  {
    id: 'A',
    intent:
      'The docs sparse-output case: the verifier always reports reward, format_ok only when it can parse the file.',
    inputs: { instruction: 'Write the answer to /app/answer.txt' },
    reference: { expected: '42' },
    metrics: [
      {
        type: 'harbor_reward',
        outputs: [
          { name: 'reward', description: 'verifier reward in [0, 1]', value_schema: 'ContinuousScore' },
          {
            name: 'format_ok',
            description: 'answer file parsed',
            value_schema: 'ContinuousScore',
            required: false,
          },
        ],
      },
    ],
    views: {
      format_quality: {
        reducer: 'single',
        signals: [{ metric: 'harbor_reward', output: 'format_ok', weight: null }],
      },
    },
    metadata: {},
  },
  {
    id: 'B',
    intent: 'Fix the failing unit test without changing the test file.',
    inputs: { instruction: 'Make `pytest tests/test_parse.py` pass.' },
    reference: { test_file: 'tests/test_parse.py' },
    metrics: [
      {
        type: 'unit_tests',
        outputs: [
          { name: 'passed', description: 'all tests passed', value_schema: 'BooleanValue' },
          { name: 'pass_rate', description: 'fraction of tests passing', value_schema: 'ContinuousScore' },
        ],
      },
    ],
    views: {
      tests_solid: {
        reducer: 'all',
        signals: [
          { metric: 'unit_tests', output: 'passed', weight: null },
          { metric: 'unit_tests', output: 'pass_rate', weight: null },
        ],
      },
    },
    metadata: { difficulty: 'medium' },
  },
  {
    id: 'C',
    intent: 'Summarise the incident report in three sentences.',
    inputs: { instruction: 'Summarise /app/incident.md in three sentences.' },
    reference: {},
    metrics: [
      {
        type: 'judge',
        outputs: [
          { name: 'verdict', description: 'judge verdict', value_schema: 'Label' },
          { name: 'rating', description: '1-5 rating', value_schema: 'DiscreteScore' },
        ],
      },
    ],
    views: {},
    metadata: { difficulty: 'easy' },
  },
];

interface TrialPlan {
  id: string;
  task: number;
  status: TrialStatus;
  answer: string | null;
  tokens: [number, number];
  runtime: number;
  error?: TrialError;
  score:
    | { status: 'completed'; outputs: MetricOutput[] }
    | { status: 'failed'; error: string; exception?: string };
}

const PLANS: TrialPlan[] = [
  {
    id: 'a1',
    task: 0,
    status: 'completed',
    answer: '42',
    tokens: [80, 40],
    runtime: 4.5,
    score: {
      status: 'completed',
      outputs: [
        { name: 'reward', value: 1 },
        { name: 'format_ok', value: 1 },
      ],
    },
  },
  {
    id: 'a2',
    task: 0,
    status: 'completed',
    answer: 'forty-two',
    tokens: [95, 52],
    runtime: 6.25,
    score: { status: 'completed', outputs: [{ name: 'reward', value: 0 }] },
  },
  {
    id: 'b1',
    task: 1,
    status: 'completed',
    answer: 'Fixed the off-by-one in parse_range.',
    tokens: [410, 120],
    runtime: 31.5,
    score: {
      status: 'completed',
      outputs: [
        { name: 'passed', value: true },
        { name: 'pass_rate', value: 1 },
      ],
    },
  },
  {
    id: 'b2',
    task: 1,
    status: 'failed',
    answer: null,
    tokens: [0, 0],
    runtime: 2,
    error: {
      type: 'RuntimeError',
      message: 'sandbox exited with code 137',
      traceback: null,
      occurred_at: '2026-07-15T09:30:40',
    },
    score: { status: 'failed', error: "trial 'b2' is failed" },
  },
  {
    id: 'b3',
    task: 1,
    status: 'completed',
    answer: 'Skipped the flaky case.',
    tokens: [388, 97],
    runtime: 27.75,
    score: {
      status: 'completed',
      outputs: [
        { name: 'passed', value: false },
        { name: 'pass_rate', value: 0.5 },
      ],
    },
  },
  {
    id: 'c1',
    task: 2,
    status: 'completed',
    answer: 'The outage lasted 40 minutes. A config push caused it. It was rolled back.',
    tokens: [1210, 64],
    runtime: 8.5,
    score: {
      status: 'completed',
      outputs: [
        { name: 'verdict', value: 'good' },
        { name: 'rating', value: 4 },
      ],
    },
  },
  {
    id: 'c2',
    task: 2,
    status: 'completed',
    answer: 'Something broke and was fixed.',
    tokens: [1190, 21],
    runtime: 7,
    score: { status: 'failed', error: 'judge timed out after 30s', exception: 'TimeoutError' },
  },
  {
    id: 'c3',
    task: 2,
    status: 'partial',
    answer: 'The outage was caused by',
    tokens: [1205, 12],
    runtime: 60,
    error: {
      type: 'AgentTimeoutError',
      message: 'agent hit the 60 s limit',
      traceback: null,
      occurred_at: '2026-07-15T09:30:58Z',
    },
    score: {
      status: 'completed',
      outputs: [
        { name: 'verdict', value: 'poor' },
        { name: 'rating', value: 2 },
      ],
    },
  },
];

function atifTrace(plan: TrialPlan, task: TaskSpec): JsonObject {
  return {
    schema_version: 'ATIF-v1.4',
    session_id: plan.id,
    agent: { name: 'demo-agent', version: '1.0.0', model_name: 'demo-model' },
    steps: [
      { step_id: 1, source: 'user', message: String(task.inputs['instruction']) },
      {
        step_id: 2,
        source: 'agent',
        message: '',
        tool_calls: [
          { tool_call_id: `call_${plan.id}`, function_name: 'bash', arguments: { command: 'ls /app' } },
        ],
        observation: {
          results: [{ source_call_id: `call_${plan.id}`, content: 'answer.txt incident.md tests' }],
        },
        metrics: {
          prompt_tokens: Math.round(plan.tokens[0] / 2),
          completion_tokens: Math.round(plan.tokens[1] / 2),
        },
      },
      {
        step_id: 3,
        source: 'agent',
        message: plan.answer ?? '',
        metrics: {
          prompt_tokens: plan.tokens[0] - Math.round(plan.tokens[0] / 2),
          completion_tokens: plan.tokens[1] - Math.round(plan.tokens[1] / 2),
        },
      },
    ],
  };
}

/**
 * Writes the example bundle into `dir` (which must not exist or be empty). `tasksUpFront: false`
 * lets the sink collect tasks from the trials and summarise at shutdown (same bytes either way).
 */
export async function writeSparseRunExample(dir: string, tasksUpFront = true): Promise<void> {
  const root = resolve(dir);
  let clock = Date.parse('2026-07-15T09:30:12Z');
  const sink = toRunBundle(root, {
    runId: EXAMPLE_RUN_ID,
    ...(tasksUpFront ? { tasks: TASKS } : {}),
    labels: { benchmark: 'sparse-demo', source: 'evalstream examples' },
    target: { name: 'harbor', kind: 'runner', version: null, config: { n_attempts: 2 } },
    clock: () => {
      const now = new Date(clock);
      clock += 48_000;
      return now;
    },
  });
  for (const plan of PLANS) {
    const task = TASKS[plan.task] as TaskSpec;
    let evidence: Trial['evidence'] = null;
    if (plan.status !== 'failed') {
      const evidenceDir = join(root, 'evidence', plan.id);
      await mkdir(evidenceDir, { recursive: true });
      await writeFile(join(evidenceDir, 'atif.json'), JSON.stringify(atifTrace(plan, task), null, 2) + '\n');
      evidence = {
        descriptors: {
          trace: {
            kind: 'trace',
            format: 'atif',
            ref: join(evidenceDir, 'atif.json'),
            data: null,
            description: null,
            metadata: {},
          },
        },
        metadata: {},
      };
    }
    const [prompt, completion] = plan.tokens;
    const trial: Trial = {
      id: plan.id,
      task_id: task.id,
      status: plan.status,
      output: plan.answer === null ? null : { output_text: plan.answer, response: null, metadata: {} },
      evidence,
      error: plan.error ?? null,
      measurements: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        cache_creation_tokens: null,
        cache_read_tokens: null,
        runtime_sec: plan.runtime,
        cost_usd: null,
      },
      metadata: { attempt: Number(plan.id.slice(1)) },
    };
    const metricType = (task.metrics[0] as TaskSpec['metrics'][number]).type;
    const s = plan.score;
    const score: ScoreRecord = {
      id: `${EXAMPLE_RUN_ID}:${task.id}:${plan.id}:${metricType}`,
      run_id: EXAMPLE_RUN_ID,
      task_id: task.id,
      trial_id: plan.id,
      metric_type: metricType,
      status: s.status,
      outputs: s.status === 'completed' ? s.outputs : [],
      diagnostics:
        s.status === 'completed'
          ? []
          : [
              {
                severity: 'error',
                message: s.error,
                source: metricType,
                details:
                  s.exception === undefined ? { trial_status: 'failed' } : { exception_type: s.exception },
              },
            ],
      metadata: { row_index: plan.task, trial_metadata: trial.metadata },
    };
    await sink.write({
      item: { trial, evidence: null, task, origin: { file: 'sparse-run-example.ts' } },
      scores: [score],
      task,
    });
  }
  await sink.shutdown();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2];
  if (target === undefined) throw new Error('usage: tsx test/bundle/sparse-run-example.ts <dir>');
  await rm(target, { recursive: true, force: true });
  await writeSparseRunExample(target);
}
