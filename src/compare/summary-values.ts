import type { Summary } from '../model/summary.js';
import type { RunValues, TrialValue } from './run-values.js';

/**
 * The per-trial values `compare` needs, taken from a summary's `task_metric_values` (every output of
 * every task, trial by trial, in the summary's task order): numbers and booleans (as 0/1) kept;
 * labels, missing and non-finite values dropped. An output is binary when every value kept is 0 or 1.
 *
 * @example
 * const { outputs, binary } = summaryValues(summary);
 * outputs.get('verifier_reward.reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, ...]
 */
export function summaryValues(summary: Summary): Pick<RunValues, 'outputs' | 'binary'> {
  const outputs = new Map<string, Map<string, TrialValue[]>>();
  const nonBinary = new Set<string>();
  for (const task of Object.keys(summary.task_metric_values)) {
    for (const [name, records] of Object.entries(summary.task_metric_values[task] ?? {})) {
      const values: TrialValue[] = [];
      for (const record of records) {
        if (record.value_type !== 'number') continue;
        const v = record.value;
        const value = typeof v === 'boolean' ? Number(v) : typeof v === 'number' ? v : NaN;
        if (!Number.isFinite(value)) continue;
        if (value !== 0 && value !== 1) nonBinary.add(name);
        values.push({ trialId: record.trial_id, value });
      }
      let byTask = outputs.get(name);
      if (byTask === undefined) outputs.set(name, (byTask = new Map()));
      byTask.set(task, values);
    }
  }
  const binary = new Set([...outputs.keys()].filter((name) => !nonBinary.has(name)));
  return { outputs, binary };
}
