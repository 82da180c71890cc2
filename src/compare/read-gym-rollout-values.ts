import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { InputError } from '../sources/input-error.js';
import type { RunValues, TrialValue } from './run-values.js';

/**
 * Reads the rewards of a NeMo Gym rollouts file (JSONL, one rollout per line) as one output,
 * `reward`: task = `_ng_task_index` (prefixed by `agent_ref.name` when there is one), trial =
 * `<task>-<_ng_rollout_index>`, trials of a task in rollout order. Booleans count as 0/1; a null or
 * non-finite reward is left out. A line that is not a JSON object with integer indexes, or a repeated
 * (task, rollout), throws an `InputError` naming the file, line and field.
 *
 * @example
 * const a = await readGymRolloutValues('results/rollouts.jsonl');
 * a.outputs.get('reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, { trialId: '0-1', value: 0 }]
 */
export async function readGymRolloutValues(file: string): Promise<RunValues> {
  const byTask = new Map<string, { rollout: number; value: TrialValue | null }[]>();
  const seen = new Set<string>();
  let binary = true;
  let line = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch (error) {
      throw new InputError(`not JSON: ${(error as Error).message}`, { file, line });
    }
    if (row === null || typeof row !== 'object' || Array.isArray(row))
      throw new InputError('a rollout must be a JSON object', { file, line });
    const r = row as Record<string, unknown>;
    const index = (field: string): number => {
      const v = r[field];
      if (typeof v !== 'number' || !Number.isInteger(v))
        throw new InputError(`${field} must be an integer, got ${JSON.stringify(v)}`, { file, line, field });
      return v;
    };
    const task = index('_ng_task_index');
    const rollout = index('_ng_rollout_index');
    const agent = r['agent_ref'] as { name?: unknown } | undefined;
    const taskId = typeof agent?.name === 'string' ? `${agent.name}:${task}` : String(task);
    const key = `${taskId}\u0000${rollout}`;
    if (seen.has(key)) throw new InputError(`rollout (${task}, ${rollout}) appears twice`, { file, line });
    seen.add(key);
    const reward = r['reward'];
    const value = typeof reward === 'boolean' ? (reward ? 1 : 0) : typeof reward === 'number' ? reward : NaN;
    const finite = Number.isFinite(value);
    if (finite && value !== 0 && value !== 1) binary = false;
    let trials = byTask.get(taskId);
    if (trials === undefined) byTask.set(taskId, (trials = []));
    trials.push({ rollout, value: finite ? { trialId: `${taskId}-${rollout}`, value } : null });
  }
  const tasks = new Map<string, TrialValue[]>();
  for (const [task, trials] of byTask) {
    trials.sort((x, y) => x.rollout - y.rollout);
    tasks.set(
      task,
      trials.flatMap((t) => (t.value === null ? [] : [t.value])),
    );
  }
  return {
    source: file,
    runId: null,
    outputs: new Map([['reward', tasks]]),
    binary: binary ? new Set(['reward']) : new Set(),
  };
}
