import { pyInt } from '../../pycompat/py-int.js';
import type { PyJsonObject } from '../../pycompat/py-json.js';
import { compareCodePoints } from '../../pycompat/compare-code-points.js';
import { selectKth } from '../stats/select-kth.js';
import { pairwiseSum } from '../stats/pairwise-sum.js';
import { pandasStdAbout } from '../stats/pandas-std.js';
import { rangeMax, rangeMin } from '../stats/range-extremes.js';
import { tConfidenceInterval } from '../stats/t-confidence-interval.js';
import type { GymFrame } from './build-gym-frame.js';
import type { GymWarnings } from './gym-warnings.js';

/**
 * The median of `values` (the middle value or `(a + b) / 2`), found by selecting the order
 * statistics it needs instead of sorting. Reorders `values`: afterwards position `n >> 1` holds its
 * order statistic, with no larger value before it and no smaller one after it.
 */
function medianOf(values: Float64Array): number {
  const n = values.length;
  const mid = n >> 1;
  selectKth(values, mid);
  if (n % 2 === 1) return values[mid] as number;
  return (rangeMax(values, 0, mid) + (values[mid] as number)) / 2;
}

/**
 * numpy's linear quantile `q` of `values` after {@link medianOf} (which split them at `mid = n >> 1`):
 * the order statistic it needs is selected only on its side of `mid`, and the next one is the
 * smallest value after it on that side (up to and including `mid`).
 */
function quantileAfterMedian(values: Float64Array, q: number): number {
  const n = values.length;
  const mid = n >> 1;
  const h = n * q + (1 + q * (1 - 1 - 1)) - 1;
  const i = Math.min(Math.max(Math.floor(h), 0), n - 1);
  if (i < mid) selectKth(values, i, 0, mid - 1);
  else if (i > mid) selectKth(values, i, mid + 1, n - 1);
  const a = values[i] as number;
  const b = i + 1 < n ? rangeMin(values, i + 1, i < mid ? mid + 1 : n) : a;
  return lerp(a, b, h - Math.floor(h));
}

/** numpy's `_lerp` of two neighbours: `a + (b-a)·g` below 0.5, `b - (b-a)·(1-g)` from 0.5 on. */
function lerp(a: number, b: number, g: number): number {
  const diff = b - a;
  return g >= 0.5 ? b - diff * (1 - g) : a + diff * g;
}

/** The repeats of one agent's rows: each position's slot, and per slot its rollout index, rows and tasks. */
interface RepeatSlots {
  /** Slot of each position. */
  slot: Int32Array;
  /** Rollout index of each slot (slots in order of first appearance). */
  rollouts: number[];
  /** Rows of each slot. */
  counts: number[];
  /** Distinct tasks of each slot. */
  present: number[];
  /** Distinct tasks of the agent. */
  taskCount: number;
}

/**
 * Gives each position its repeat slot. Positions ascend and the frame is sorted by task, so equal
 * tasks are adjacent, within a slot too.
 */
function assignRepeatSlots(frame: GymFrame, positions: Int32Array): RepeatSlots {
  const slotOfRollout = new Map<number, number>();
  const rollouts: number[] = [];
  const counts: number[] = [];
  const present: number[] = [];
  const lastTaskOf: number[] = [];
  const slot = new Int32Array(positions.length);
  let taskCount = 0;
  let lastTask = NaN;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as number;
    const r = frame.rollout[p] as number;
    const t = frame.task[p] as number;
    if (t !== lastTask) {
      taskCount++;
      lastTask = t;
    }
    let s = slotOfRollout.get(r);
    if (s === undefined) {
      s = rollouts.length;
      slotOfRollout.set(r, s);
      rollouts.push(r);
      counts.push(0);
      present.push(0);
      lastTaskOf.push(NaN);
    }
    slot[i] = s;
    counts[s] = (counts[s] as number) + 1;
    if (t !== lastTaskOf[s]) {
      present[s] = (present[s] as number) + 1;
      lastTaskOf[s] = t;
    }
  }
  return { slot, rollouts, counts, present, taskCount };
}

/** Copies the non-NaN values of `col` at `positions` to their slot's next place in `grouped`. */
function groupColumn(
  col: Float64Array,
  positions: Int32Array,
  slot: Int32Array,
  grouped: Float64Array,
  filled: Int32Array,
): void {
  for (let i = 0; i < positions.length; i++) {
    const v = col[positions[i] as number] as number;
    if (v === v) {
      const s = slot[i] as number;
      grouped[filled[s] as number] = v;
      filled[s] = (filled[s] as number) + 1;
    }
  }
}

/** The statistics of a repeat's column, in the order of their entry keys. */
const REPEAT_STATS = ['mean', 'median', 'std', 'sem', 'min', 'max', 'p25', 'p75'] as const;

/** One repeat's statistics of one column. */
type RepeatStats = Record<(typeof REPEAT_STATS)[number], number>;

function newRepeatStats(): RepeatStats {
  return { mean: 0, median: 0, std: 0, sem: 0, min: 0, max: 0, p25: 0, p75: 0 };
}

/** The statistics of `xs` (not empty) into `out`; `scratch.sorted` is grown as needed. */
function repeatStats(xs: Float64Array, scratch: { sorted: Float64Array }, out: RepeatStats): void {
  const n = xs.length;
  const mean = (0 + pairwiseSum(xs)) / n;
  const std = n > 1 ? pandasStdAbout(xs, 0, n, mean, n - 1) : 0.0;
  if (scratch.sorted.length < n) scratch.sorted = new Float64Array(Math.max(n, 2 * scratch.sorted.length));
  const ss = scratch.sorted.subarray(0, n);
  ss.set(xs);
  out.mean = mean;
  out.std = std;
  out.sem = std / Math.sqrt(n);
  out.min = rangeMin(ss, 0, n);
  out.max = rangeMax(ss, 0, n);
  out.median = medianOf(ss);
  out.p25 = quantileAfterMedian(ss, 0.25);
  out.p75 = quantileAfterMedian(ss, 0.75);
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
  // columns sorted by name
  const columns = frame.names
    .map((_, c) => c)
    .sort((a, b) => compareCodePoints(frame.names[a] as string, frame.names[b] as string));
  const out: { agent: string; entry: PyJsonObject }[] = [];
  for (const agent of agents) {
    const positions = agent.positions;
    const m = positions.length;
    const slots = assignRepeatSlots(frame, positions);
    const count = slots.rollouts.length;
    if (count < 2) continue;
    // slots in ascending rollout index; each slot's values are laid out contiguously (in position
    // order) at `start[s]`, so that a column is read once in order instead of gathered per repeat
    const order = slots.rollouts
      .map((_, s) => s)
      .sort((a, b) => (slots.rollouts[a] as number) - (slots.rollouts[b] as number));
    const start = new Int32Array(count);
    for (let s = 0, at = 0; s < count; s++) {
      start[s] = at;
      at += slots.counts[s] as number;
    }
    const entries: PyJsonObject[] = new Array<PyJsonObject>(count);
    for (const s of order) {
      const entry: PyJsonObject = {};
      if (withAgentRef) entry['agent_ref'] = { name: agent.name };
      entry['_ng_rollout_index'] = pyInt(slots.rollouts[s] as number);
      entry['sample_count'] = pyInt(slots.present[s] as number);
      entry['missing_count'] = pyInt(slots.taskCount - (slots.present[s] as number));
      entries[s] = entry;
    }
    const grouped = new Float64Array(m);
    const filled = new Int32Array(count);
    const scratch = { sorted: new Float64Array(1024) };
    const stats = newRepeatStats();
    /** Per (slot, column position in `columns`): n of a collapsed interval, else 0 (warned in entry order). */
    const zeroSe = new Int32Array(count * columns.length);
    for (let ci = 0; ci < columns.length; ci++) {
      const c = columns[ci] as number;
      const name = frame.names[c] as string;
      filled.set(start);
      groupColumn(frame.columns[c] as Float64Array, positions, slots.slot, grouped, filled);
      for (const s of order) {
        const n = (filled[s] as number) - (start[s] as number);
        if (n === 0) continue;
        repeatStats(grouped.subarray(start[s] as number, filled[s] as number), scratch, stats);
        const entry = entries[s] as PyJsonObject;
        for (const stat of REPEAT_STATS) entry[`${stat}/${name}`] = stats[stat];
        const ci95 = tConfidenceInterval(stats.mean, stats.sem, n);
        if (ci95 !== null) {
          if (ci95.zeroSe) zeroSe[s * columns.length + ci] = n;
          entry[`ci_low_95/${name}`] = ci95.low;
          entry[`ci_high_95/${name}`] = ci95.high;
        }
      }
    }
    for (const s of order) {
      for (let ci = 0; ci < columns.length; ci++) {
        const n = zeroSe[s * columns.length + ci] as number;
        if (n > 0) warnings.zeroStandardError(n);
      }
      out.push({ agent: agent.name, entry: entries[s] as PyJsonObject });
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
