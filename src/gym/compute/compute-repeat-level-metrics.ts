import { pyInt } from '../py-int.js';
import type { PyJsonObject } from '../py-json.js';
import { comparePyStrings } from '../stats/compare-py-strings.js';
import { selectKth } from '../stats/select-kth.js';
import { pairwiseSum } from '../stats/pairwise-sum.js';
import { pandasStdAbout } from '../stats/pandas-std.js';
import { tConfidenceInterval } from '../stats/t-confidence-interval.js';
import type { GymFrame } from './build-gym-frame.js';
import type { GymWarnings } from './gym-warnings.js';

/**
 * The median (q = 0.5: middle value or `(a + b) / 2`) or numpy linear quantile of `values`, found by
 * selecting the one or two order statistics it needs instead of sorting (reorders `values`).
 */
function orderStat(values: Float64Array, q: number): number {
  const n = values.length;
  if (q === 0.5) {
    const mid = n >> 1;
    selectKth(values, mid);
    if (n % 2 === 1) return values[mid] as number;
    let below = -Infinity;
    for (let i = 0; i < mid; i++) if ((values[i] as number) > below) below = values[i] as number;
    return (below + (values[mid] as number)) / 2;
  }
  const h = n * q + (1 + q * (1 - 1 - 1)) - 1;
  const i = Math.min(Math.max(Math.floor(h), 0), n - 1);
  selectKth(values, i);
  const a = values[i] as number;
  let b = a;
  if (i + 1 < n) {
    b = Infinity;
    for (let j = i + 1; j < n; j++) if ((values[j] as number) < b) b = values[j] as number;
  }
  return lerp(a, b, h - Math.floor(h));
}

/** numpy's `_lerp` of two neighbours (as in `numpyQuantileLinear`). */
function lerp(a: number, b: number, g: number): number {
  const diff = b - a;
  return g >= 0.5 ? b - diff * (1 - g) : a + diff * g;
}

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
    // positions ascend and the frame is sorted by task: equal tasks are adjacent
    let taskCount = 0;
    let lastTask = NaN;
    for (const p of agent.positions) {
      const r = frame.rollout[p] as number;
      const t = frame.task[p] as number;
      if (t !== lastTask) {
        taskCount++;
        lastTask = t;
      }
      const list = byRollout.get(r);
      if (list) list.push(p);
      else byRollout.set(r, [p]);
    }
    if (byRollout.size < 2) continue;
    const rolloutIndices = [...byRollout.keys()].sort((a, b) => a - b);
    let x = new Float64Array(1024);
    let sorted = new Float64Array(1024);
    for (const r of rolloutIndices) {
      const positions = Int32Array.from(byRollout.get(r) as number[]);
      let present = 0;
      let last = NaN;
      for (const p of positions) {
        const t = frame.task[p] as number;
        if (t !== last) {
          present++;
          last = t;
        }
      }
      const entry: PyJsonObject = {};
      if (withAgentRef) entry['agent_ref'] = { name: agent.name };
      entry['_ng_rollout_index'] = pyInt(r);
      entry['sample_count'] = pyInt(present);
      entry['missing_count'] = pyInt(taskCount - present);
      if (x.length < positions.length) {
        x = new Float64Array(positions.length);
        sorted = new Float64Array(positions.length);
      }
      for (const c of order) {
        const col = frame.columns[c] as Float64Array;
        const name = frame.names[c] as string;
        let n = 0;
        const m = positions.length;
        for (let i = 0; i < m; i++) {
          const v = col[positions[i] as number] as number;
          if (v === v) x[n++] = v;
        }
        if (n === 0) continue;
        const xs = x.subarray(0, n);
        const mean = (0 + pairwiseSum(xs)) / n;
        const std = n > 1 ? pandasStdAbout(xs, 0, n, mean, n - 1) : 0.0;
        const sem = std / Math.sqrt(n);
        const ss = sorted.subarray(0, n);
        ss.set(xs);
        let lo = Infinity;
        let hi = -Infinity;
        for (let i = 0; i < n; i++) {
          const v = ss[i] as number;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        entry[`mean/${name}`] = mean;
        entry[`median/${name}`] = orderStat(ss, 0.5);
        entry[`std/${name}`] = std;
        entry[`sem/${name}`] = sem;
        entry[`min/${name}`] = lo;
        entry[`max/${name}`] = hi;
        entry[`p25/${name}`] = orderStat(ss, 0.25);
        entry[`p75/${name}`] = orderStat(ss, 0.75);
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
