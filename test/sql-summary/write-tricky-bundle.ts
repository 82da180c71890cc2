import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mulberry32 } from '../../bench/mulberry32.js';

/**
 * A bundle written as Python's json.dumps would: numeric outputs as int or float literals (`1`,
 * `1.0`, `0.1`, `NaN`, `Infinity`), booleans, labels, nulls, failed scores, duplicate output names,
 * repeated trial ids, views with every reducer.
 */
export async function writeTrickyBundle(dir: string, seed: number): Promise<void> {
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  await mkdir(dir, { recursive: true });
  const reducers = ['mean', 'weighted_mean', 'any', 'all', 'single'];
  const tasks: string[] = [];
  const scores: string[] = [];
  const trials: string[] = [];
  const runId = 'agent-eval-20260715093012-5eed0001';
  for (let t = 0; t < 6; t++) {
    const reducer = reducers[t % reducers.length] as string;
    const signals =
      reducer === 'single'
        ? '[{"metric": "judge", "output": "reward", "weight": null}]'
        : `[{"metric": "judge", "output": "reward", "weight": ${reducer === 'weighted_mean' ? '2.0' : 'null'}}, {"metric": "unit", "output": "pass_rate", "weight": ${reducer === 'weighted_mean' ? '1.0' : 'null'}}]`;
    tasks.push(
      `{"id": "t${t}", "inputs": {}, "intent": "", "metadata": {}, "metrics": [{"outputs": [{"description": null, "name": "reward", "value_schema": "ContinuousScore"}, {"description": null, "name": "ok", "required": false, "value_schema": "BooleanValue"}, {"description": null, "name": "verdict", "required": false, "value_schema": "Label"}], "type": "judge"}, {"outputs": [{"description": null, "name": "pass_rate", "value_schema": "ContinuousScore"}, {"description": null, "name": "steps", "required": false, "value_schema": "DiscreteScore"}], "type": "unit"}], "reference": {}, "views": {"v_${reducer}": {"reducer": "${reducer}", "signals": ${signals}}}}`,
    );
    const trialCount = 2 + Math.floor(rand() * 4);
    for (let k = 0; k < trialCount; k++) {
      const trialId = k === 3 ? `t${t}-r0` : `t${t}-r${k}`; // a repeated trial id
      const dead = rand() < 0.1;
      const error = dead
        ? `{"message": "boom", "occurred_at": null, "traceback": null, "type": "${pick(['AgentTimeoutError', 'RuntimeError'])}"}`
        : 'null';
      trials.push(
        `{"error": ${error}, "evidence": null, "id": "${trialId}", "measurements": {"cache_creation_tokens": null, "cache_read_tokens": null, "completion_tokens": null, "cost_usd": null, "prompt_tokens": null, "runtime_sec": null, "total_tokens": null}, "metadata": {}, "output": ${dead ? 'null' : '{"metadata": {}, "output_text": "ok", "response": null}'}, "status": "${dead ? 'failed' : 'completed'}", "task_id": "t${t}"}`,
      );
      for (const metric of ['judge', 'unit']) {
        const failed = dead || rand() < 0.08;
        const outputs: string[] = [];
        if (!failed) {
          const num = (): string =>
            pick([
              '1',
              '1.0',
              '0',
              '0.0',
              '0.1',
              '0.30000000000000004',
              '2',
              '1e-07',
              'NaN',
              'Infinity',
              '-Infinity',
              '0.75',
            ]);
          if (metric === 'judge') {
            outputs.push(`{"name": "reward", "value": ${num()}}`);
            if (rand() < 0.7) outputs.push(`{"name": "ok", "value": ${pick(['true', 'false', '1', '0.0'])}}`);
            if (rand() < 0.6)
              outputs.push(`{"name": "verdict", "value": "${pick(['good', 'bad', 'Éa', 'a'])}"}`);
            if (rand() < 0.2) outputs.push(`{"name": "reward", "value": 5.0}`); // a duplicate name: ignored
          } else {
            if (rand() < 0.9) outputs.push(`{"name": "pass_rate", "value": ${pick([num(), 'null', '"x"'])}}`);
            const steps = [
              '3',
              '4',
              '7.0',
              '1e+16',
              '1E2',
              '-0.0',
              '1e400',
              '12345678901234567890',
              '[1, 2.0]',
              '{"a": {"b": null}}',
            ];
            if (rand() < 0.5) outputs.push(`{"name": "steps", "value": ${pick(steps)}}`);
            if (rand() < 0.1) outputs.push(`{"name": "undeclared", "value": 1.5}`);
          }
        }
        const diagnostics = dead
          ? '[{"details": {"trial_status": "failed"}, "message": "trial is failed", "severity": "error", "source": null}]'
          : failed
            ? '[{"details": {}, "message": "metric failed", "severity": "error", "source": "m"}]'
            : '[]';
        scores.push(
          `{"diagnostics": ${diagnostics}, "id": "${runId}:t${t}:${trialId}:${metric}", "metadata": {}, "metric_type": "${metric}", "outputs": [${outputs.join(', ')}], "run_id": "${runId}", "status": "${failed ? 'failed' : pick(['completed', 'partial'])}", "task_id": "t${t}", "trial_id": "${trialId}"}`,
        );
      }
    }
  }
  await writeFile(join(dir, 'tasks.jsonl'), tasks.join('\n') + '\n');
  await writeFile(join(dir, 'trials.jsonl'), trials.join('\n') + '\n');
  await writeFile(join(dir, 'scores.jsonl'), scores.join('\n') + '\n');
  await writeFile(
    join(dir, 'run.json'),
    `{\n  "artifacts": {\n    "scores": "scores.jsonl",\n    "tasks": "tasks.jsonl",\n    "trials": "trials.jsonl"\n  },\n  "run_id": "${runId}"\n}\n`,
  );
}
