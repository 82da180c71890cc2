import { formatPyFloat } from '../../pycompat/format-py-float.js';
import type { PyJson } from '../../pycompat/py-json.js';
import {
  computePassMajorityMetrics,
  type PassAtKRollout,
  type PassMajorityOptions,
} from './compute-pass-majority-metrics.js';
import { pyTruthy } from '../../pycompat/py-truthy.js';

function pyStr(v: PyJson): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return formatPyFloat(v, 'repr');
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  throw new TypeError(`unhashable subset value ${JSON.stringify(v)}`);
}

/**
 * Gym's `compute_subset_metrics`: groups tasks by their first rollout's `subsetKey` value (falsy
 * values dropped) and returns `"{value}/{metric}"` for every pass@k metric of each subset, without
 * `per_sample_aggregate`.
 *
 * @example
 * computeSubsetMetrics(tasks, 'difficulty'); // { 'easy/pass@1/accuracy': 100, … }
 */
export function computeSubsetMetrics(
  tasks: readonly (readonly PassAtKRollout[])[],
  subsetKey: string,
  options: PassMajorityOptions = {},
): Record<string, number> {
  const subsets = new Map<string, PassAtKRollout[][]>();
  for (const rollouts of tasks) {
    const first = rollouts[0];
    const value = first === undefined ? undefined : first[subsetKey];
    if (!pyTruthy(value)) continue;
    const name = pyStr(value as PyJson);
    const list = subsets.get(name) ?? [];
    list.push([...rollouts]);
    subsets.set(name, list);
  }
  const out: Record<string, number> = {};
  for (const [name, subsetTasks] of subsets) {
    const { metrics } = computePassMajorityMetrics(subsetTasks, options);
    for (const [key, value] of Object.entries(metrics)) {
      if (key === 'per_sample_aggregate') continue;
      out[`${name}/${key}`] = value as number;
    }
  }
  return out;
}
