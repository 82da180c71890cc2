import { pyInt } from '../py-int.js';
import type { PyJsonObject } from '../py-json.js';
import { comparePyStrings } from '../stats/compare-py-strings.js';
import { numpyQuantileLinear } from '../stats/numpy-quantile-linear.js';
import { pairwiseSum } from '../stats/pairwise-sum.js';
import { pandasStd } from '../stats/pandas-std.js';
import { tConfidenceInterval } from '../stats/t-confidence-interval.js';
import type { GymFrame } from './build-gym-frame.js';
import type { GymWarnings } from './gym-warnings.js';

/** One agent's rows of a frame (frame row positions, in frame order). */
export interface AgentRows {
  name: string;
  positions: Int32Array;
}

/**
 * Gym's `_compute_repeat_level_metrics`: for each agent with at least two distinct rollout indices and
 * each of its rollout indices (ascending; agents in the given order), `_ng_rollout_index`,
 * `sample_count`, `missing_count`, then for every column (sorted by name) with values in that repeat:
 * mean, median, std (0.0 for one value), sem, min, max, p25, p75 and, for n > 1, the 95% t interval.
 * Emits the zero-SE warning per collapsed interval and the unequal-coverage warning once. Entries carry
 * `agent_ref` first when `withAgentRef`.
 *
 * @example
 * computeRepeatLevelMetrics(frame, [{ name: 'agent', positions }], warnings, false);
 */
export function computeRepeatLevelMetrics(
  frame: GymFrame,
  agents: readonly AgentRows[],
  warnings: GymWarnings,
  withAgentRef: boolean,
): { agent: string; entry: PyJsonObject }[] {
  const order = frame.names
    .map((_, c) => c)
    .sort((a, b) => comparePyStrings(frame.names[a] as string, frame.names[b] as string));
  const out: { agent: string; entry: PyJsonObject }[] = [];
  for (const agent of agents) {
    const byRollout = new Map<number, number[]>();
    const tasks = new Set<number>();
    for (const p of agent.positions) {
      const r = frame.rollout[p] as number;
      tasks.add(frame.task[p] as number);
      const list = byRollout.get(r);
      if (list) list.push(p);
      else byRollout.set(r, [p]);
    }
    if (byRollout.size < 2) continue;
    const rolloutIndices = [...byRollout.keys()].sort((a, b) => a - b);
    let x = new Float64Array(1024);
    let sorted = new Float64Array(1024);
    for (const r of rolloutIndices) {
      const positions = byRollout.get(r) as number[];
      const presentTasks = new Set<number>();
      for (const p of positions) presentTasks.add(frame.task[p] as number);
      const present = presentTasks.size;
      const entry: PyJsonObject = {};
      if (withAgentRef) entry['agent_ref'] = { name: agent.name };
      entry['_ng_rollout_index'] = pyInt(r);
      entry['sample_count'] = pyInt(present);
      entry['missing_count'] = pyInt(tasks.size - present);
      if (x.length < positions.length) {
        x = new Float64Array(positions.length);
        sorted = new Float64Array(positions.length);
      }
      for (const c of order) {
        const col = frame.columns[c] as Float64Array;
        const name = frame.names[c] as string;
        let n = 0;
        for (const p of positions) {
          const v = col[p] as number;
          if (v === v) x[n++] = v;
        }
        if (n === 0) continue;
        const xs = x.subarray(0, n);
        const mean = (0 + pairwiseSum(xs)) / n;
        const std = n > 1 ? pandasStd(xs) : 0.0;
        const sem = std / Math.sqrt(n);
        const ss = sorted.subarray(0, n);
        ss.set(xs);
        ss.sort();
        const mid = n >> 1;
        entry[`mean/${name}`] = mean;
        entry[`median/${name}`] =
          n % 2 === 1 ? (ss[mid] as number) : ((ss[mid - 1] as number) + (ss[mid] as number)) / 2;
        entry[`std/${name}`] = std;
        entry[`sem/${name}`] = sem;
        entry[`min/${name}`] = ss[0] as number;
        entry[`max/${name}`] = ss[n - 1] as number;
        entry[`p25/${name}`] = numpyQuantileLinear(ss, 0.25);
        entry[`p75/${name}`] = numpyQuantileLinear(ss, 0.75);
        const ci = tConfidenceInterval(mean, sem, n);
        if (ci !== null) {
          if (ci.zeroSe) warnings.zeroStandardError(n);
          entry[`ci_low_95/${name}`] = ci.low;
          entry[`ci_high_95/${name}`] = ci.high;
        }
      }
      out.push({ agent: agent.name, entry });
    }
  }
  const incomplete = out.filter((e) => (e.entry['missing_count'] as bigint) > 0n);
  const first = incomplete[0];
  if (first !== undefined) {
    warnings.unequalCoverage(
      incomplete.length,
      first.agent,
      first.entry['_ng_rollout_index'] as bigint,
      first.entry['missing_count'] as bigint,
    );
  }
  return out;
}
