import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JsonlWriter } from '../src/bundle/jsonl-writer.js';
import { PyFloat } from '../src/pycompat/py-float.js';
import { pythonJson } from '../src/pycompat/python-json.js';
import { taskToWire } from '../src/bundle/to-wire.js';
import type { TaskSpec } from '../src/model/task.js';
import { mulberry32 } from './mulberry32.js';

/** Options of {@link generateScoreBundle}. */
export interface ScoreBundleConfig {
  /** Bundle directory (reused when it already holds a bundle made with the same options). */
  dir: string;
  /** Number of tasks; each gets `trialsPerTask` trials and 4 metrics (so scores = tasks × trials × 4). */
  tasks: number;
  trialsPerTask: number;
  /** PRNG seed (default 7). */
  seed?: number;
}

const RUN_ID = 'agent-eval-20260715093012-be7c40a1';

function taskSpec(id: string): TaskSpec {
  return {
    id,
    intent: `Solve ${id}`,
    inputs: { instruction: `Solve task ${id} and write the answer to /app/answer.txt` },
    reference: { expected: 'ok' },
    metrics: [
      {
        type: 'harbor_reward',
        outputs: [
          { name: 'reward', description: null, value_schema: 'ContinuousScore' },
          { name: 'format_ok', description: null, value_schema: 'ContinuousScore', required: false },
        ],
      },
      {
        type: 'unit_tests',
        outputs: [
          { name: 'passed', description: null, value_schema: 'BooleanValue' },
          { name: 'pass_rate', description: null, value_schema: 'ContinuousScore' },
        ],
      },
      {
        type: 'judge',
        outputs: [
          { name: 'verdict', description: null, value_schema: 'Label' },
          { name: 'rating', description: null, value_schema: 'DiscreteScore' },
        ],
      },
      { type: 'tool_calls', outputs: [{ name: 'count', description: null, value_schema: 'DiscreteScore' }] },
    ],
    views: {
      format_quality: {
        reducer: 'single',
        signals: [{ metric: 'harbor_reward', output: 'format_ok', weight: null }],
      },
      solid: {
        reducer: 'all',
        signals: [
          { metric: 'harbor_reward', output: 'reward', weight: null },
          { metric: 'unit_tests', output: 'pass_rate', weight: null },
        ],
      },
    },
    metadata: { split: 'bench' },
  };
}

/**
 * Writes (once, then reuses) a realistic SDK-format bundle for benchmarks: Harbor-style reward with
 * a sparse optional output, a boolean/continuous test metric, a label/discrete judge and a discrete
 * tool-call count; ~1% dead trials (trial-failure scores, an error rollup) and ~1% judge failures.
 *
 * @example
 * await generateScoreBundle({ dir: 'bench/out/scores-1m', tasks: 5000, trialsPerTask: 50 }); // 1M scores
 */
export async function generateScoreBundle(config: ScoreBundleConfig): Promise<string> {
  const stamp = JSON.stringify({
    v: 1,
    tasks: config.tasks,
    trialsPerTask: config.trialsPerTask,
    seed: config.seed ?? 7,
  });
  const marker = join(config.dir, '.generated');
  if (existsSync(marker) && (await readFile(marker, 'utf8')) === stamp) return config.dir;
  await rm(config.dir, { recursive: true, force: true });
  await mkdir(config.dir, { recursive: true });
  const random = mulberry32(config.seed ?? 7);
  const tasksOut = await JsonlWriter.create(join(config.dir, 'tasks.jsonl'));
  const trialsOut = await JsonlWriter.create(join(config.dir, 'trials.jsonl'));
  const scoresOut = await JsonlWriter.create(join(config.dir, 'scores.jsonl'));
  const verdicts = ['good', 'ok', 'poor'];
  for (let t = 0; t < config.tasks; t++) {
    const taskId = `task-${String(t).padStart(5, '0')}`;
    await tasksOut.writeLine(pythonJson(taskToWire(taskSpec(taskId))));
    const skill = random();
    for (let k = 0; k < config.trialsPerTask; k++) {
      const trialId = `${taskId}__${k.toString(16).padStart(4, '0')}`;
      const dead = random() < 0.01;
      const reward = random() < skill ? 1 : 0;
      const metadata = { attempt: k + 1 };
      await trialsOut.writeLine(
        pythonJson({
          id: trialId,
          task_id: taskId,
          status: dead ? 'failed' : 'completed',
          output: dead ? null : { output_text: reward ? 'done' : 'gave up', response: null, metadata: {} },
          evidence: dead
            ? null
            : {
                descriptors: {
                  trace: {
                    kind: 'trace',
                    format: 'atif',
                    ref: `evidence/${trialId}/atif.json`,
                    data: null,
                    description: null,
                    metadata: {},
                  },
                },
                metadata: {},
              },
          error: dead
            ? { type: 'RuntimeError', message: 'sandbox died', traceback: null, occurred_at: null }
            : null,
          measurements: {
            prompt_tokens: 1000 + Math.floor(random() * 5000),
            completion_tokens: 100 + Math.floor(random() * 900),
            total_tokens: null,
            cache_creation_tokens: null,
            cache_read_tokens: null,
            runtime_sec: new PyFloat(Math.round(random() * 600_000) / 1000),
            cost_usd: null,
          },
          metadata,
        }),
      );
      const metricOutputs: [string, { name: string; value: unknown }[] | 'metric-failed'][] = [
        [
          'harbor_reward',
          random() < 0.7
            ? [
                { name: 'reward', value: new PyFloat(reward) },
                { name: 'format_ok', value: new PyFloat(random() < 0.9 ? 1 : 0) },
              ]
            : [{ name: 'reward', value: new PyFloat(reward) }],
        ],
        [
          'unit_tests',
          [
            { name: 'passed', value: reward === 1 },
            { name: 'pass_rate', value: new PyFloat(reward === 1 ? 1 : Math.round(random() * 100) / 100) },
          ],
        ],
        [
          'judge',
          random() < 0.01
            ? 'metric-failed'
            : [
                { name: 'verdict', value: verdicts[Math.floor(random() * 3)] as string },
                { name: 'rating', value: 1 + Math.floor(random() * 5) },
              ],
        ],
        ['tool_calls', [{ name: 'count', value: Math.floor(random() * 40) }]],
      ];
      for (const [metricType, outputs] of metricOutputs) {
        const failed = dead || outputs === 'metric-failed';
        const diagnostics = dead
          ? [
              {
                severity: 'error',
                message: `trial '${trialId}' is failed`,
                source: metricType,
                details: { trial_status: 'failed' },
              },
            ]
          : outputs === 'metric-failed'
            ? [
                {
                  severity: 'error',
                  message: 'judge timed out',
                  source: metricType,
                  details: { exception_type: 'TimeoutError' },
                },
              ]
            : [];
        await scoresOut.writeLine(
          pythonJson({
            id: `${RUN_ID}:${taskId}:${trialId}:${metricType}`,
            run_id: RUN_ID,
            task_id: taskId,
            trial_id: trialId,
            metric_type: metricType,
            status: failed ? 'failed' : 'completed',
            outputs: failed ? [] : (outputs as never),
            diagnostics: diagnostics as never,
            metadata: { row_index: t, trial_metadata: metadata },
          }),
        );
      }
    }
  }
  await tasksOut.close();
  await trialsOut.close();
  await scoresOut.close();
  const manifest = {
    run_id: RUN_ID,
    artifacts: {
      metadata: 'metadata.json',
      tasks: 'tasks.jsonl',
      trials: 'trials.jsonl',
      scores: 'scores.jsonl',
      summary: 'summary.json',
    },
  };
  await writeFile(join(config.dir, 'run.json'), pythonJson(manifest, { indent: 2 }) + '\n');
  await writeFile(marker, stamp);
  return config.dir;
}
