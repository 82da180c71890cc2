import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GymFrame } from '../../../src/gym/compute/build-gym-frame.js';
import {
  computeRepeatLevelMetrics,
  type AgentRows,
} from '../../../src/gym/compute/compute-repeat-level-metrics.js';
import { GymWarnings } from '../../../src/gym/compute/gym-warnings.js';
import type { PyJsonObject } from '../../../src/pycompat/py-json.js';
import { numpyQuantileLinear } from '../stats/numpy-quantile-linear.js';
import { pandasMean } from '../../../src/gym/stats/pandas-mean.js';
import { pandasStd } from '../../../src/gym/stats/pandas-std.js';
import { tConfidenceInterval } from '../../../src/gym/stats/t-confidence-interval.js';

/**
 * Gym's `_compute_repeat_level_metrics` written the plain way, as the oracle: rows grouped by rollout
 * index with a Map, each group's values sorted for the order statistics, warnings as they come.
 */
function reference(frame: GymFrame, agents: AgentRows[], warnings: GymWarnings): PyJsonObject[] {
  const names = [...frame.names].sort();
  const out: PyJsonObject[] = [];
  let incomplete = 0;
  let first: PyJsonObject | null = null;
  let firstAgent = '';
  for (const agent of agents) {
    const byRollout = new Map<number, number[]>();
    for (const p of agent.positions) {
      const r = frame.rollout[p] as number;
      byRollout.set(r, [...(byRollout.get(r) ?? []), p]);
    }
    if (byRollout.size < 2) continue;
    const distinctTasks = (ps: number[]): number =>
      ps.filter((p, i) => i === 0 || frame.task[p] !== frame.task[ps[i - 1] as number]).length;
    const tasks = distinctTasks([...agent.positions]);
    for (const r of [...byRollout.keys()].sort((a, b) => a - b)) {
      const ps = byRollout.get(r) as number[];
      const present = distinctTasks(ps);
      const entry: PyJsonObject = {
        _ng_rollout_index: BigInt(r),
        sample_count: BigInt(present),
        missing_count: BigInt(tasks - present),
      };
      for (const name of names) {
        const col = frame.columns[frame.names.indexOf(name)] as Float64Array;
        const xs = ps.map((p) => col[p] as number).filter((v) => !Number.isNaN(v));
        const n = xs.length;
        if (n === 0) continue;
        const sorted = Float64Array.from(xs).sort();
        const mean = pandasMean(xs);
        const std = n > 1 ? pandasStd(xs) : 0;
        const sem = std / Math.sqrt(n);
        const mid = n >> 1;
        entry[`mean/${name}`] = mean;
        entry[`median/${name}`] =
          n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
        entry[`std/${name}`] = std;
        entry[`sem/${name}`] = sem;
        entry[`min/${name}`] = sorted[0] as number;
        entry[`max/${name}`] = sorted[n - 1] as number;
        entry[`p25/${name}`] = numpyQuantileLinear(sorted, 0.25);
        entry[`p75/${name}`] = numpyQuantileLinear(sorted, 0.75);
        const ci = tConfidenceInterval(mean, sem, n);
        if (ci !== null) {
          if (ci.zeroSe) warnings.zeroStandardError(n);
          entry[`ci_low_95/${name}`] = ci.low;
          entry[`ci_high_95/${name}`] = ci.high;
        }
      }
      if (tasks - present > 0) {
        incomplete++;
        if (first === null) {
          first = entry;
          firstAgent = agent.name;
        }
      }
      out.push(entry);
    }
  }
  if (first !== null) {
    warnings.unequalCoverage(
      incomplete,
      firstAgent,
      first['_ng_rollout_index'] as bigint,
      first['missing_count'] as bigint,
    );
  }
  return out;
}

/**
 * A frame sorted by task (rollout indices in any order, repeats of a task possibly missing). No -0:
 * which of -0 and 0 is the max of both is not this function's question (both implementations keep the
 * first, numpy's SIMD reductions do not promise either).
 */
const frames = fc
  .record({
    tasks: fc.array(fc.uniqueArray(fc.integer({ min: -3, max: 12 }), { minLength: 1, maxLength: 6 }), {
      minLength: 1,
      maxLength: 12,
    }),
    columns: fc.integer({ min: 1, max: 4 }),
    seed: fc.array(
      fc.oneof(
        fc.constantFrom(0, 1, 2, NaN),
        fc.double({ noNaN: true, min: -1e6, max: 1e6 }).map((x) => (x === 0 ? 0 : x)),
      ),
      {
        minLength: 1,
        maxLength: 64,
      },
    ),
    split: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ tasks, columns, seed, split }) => {
    const task: number[] = [];
    const rollout: number[] = [];
    tasks.forEach((rollouts, t) => {
      for (const r of rollouts) {
        task.push(t);
        rollout.push(r);
      }
    });
    const n = task.length;
    // names out of sorted order, so that the column order is the sort's
    const names = ['zeta', 'alpha', 'mid', 'beta'].slice(0, columns);
    let k = 0;
    const cols = names.map(() => Float64Array.from({ length: n }, () => seed[k++ % seed.length] as number));
    const frame: GymFrame = {
      n,
      rows: Int32Array.from({ length: n }, (_, i) => i),
      task: Float64Array.from(task),
      rollout: Float64Array.from(rollout),
      names,
      columns: cols,
      intColumn: names.map(() => false),
    };
    // one agent, or two agents taking the rows alternately by task (positions still ascending)
    const all = Int32Array.from({ length: n }, (_, i) => i);
    const agents: AgentRows[] =
      split === 0
        ? [{ name: 'agent', positions: all }]
        : [
            { name: 'a', positions: all.filter((p) => (frame.task[p] as number) % (split + 1) !== 0) },
            { name: 'b', positions: all.filter((p) => (frame.task[p] as number) % (split + 1) === 0) },
          ];
    return { frame, agents };
  });

describe('computeRepeatLevelMetrics', () => {
  it('gives the plain computation’s entries, in its order, and the same warnings in the same order', () => {
    fc.assert(
      fc.property(frames, ({ frame, agents }) => {
        const got = new GymWarnings();
        const want = new GymWarnings();
        const entries = computeRepeatLevelMetrics(frame, agents, got, false).map((e) => e.entry);
        const expected = reference(frame, agents, want);
        expect(entries).toEqual(expected);
        for (const [i, e] of entries.entries())
          expect(Object.keys(e)).toEqual(Object.keys(expected[i] as object));
        expect(got.texts).toEqual(want.texts);
      }),
      { numRuns: 400 },
    );
  });

  it('puts agent_ref first when asked, and names the agent of each entry', () => {
    const frame: GymFrame = {
      n: 4,
      rows: Int32Array.of(0, 1, 2, 3),
      task: Float64Array.of(0, 0, 1, 1),
      rollout: Float64Array.of(1, 0, 0, 1),
      names: ['reward'],
      columns: [Float64Array.of(1, 0, 0.5, 1)],
      intColumn: [false],
    };
    const out = computeRepeatLevelMetrics(
      frame,
      [{ name: 'x', positions: Int32Array.of(0, 1, 2, 3) }],
      new GymWarnings(),
      true,
    );
    expect(out.map((e) => [e.agent, Object.keys(e.entry).slice(0, 2), e.entry['mean/reward']])).toEqual([
      ['x', ['agent_ref', '_ng_rollout_index'], 0.25],
      ['x', ['agent_ref', '_ng_rollout_index'], 1],
    ]);
  });
});
