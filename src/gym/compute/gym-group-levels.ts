import { pyInt } from '../../pycompat/py-int.js';
import type { PyJson, PyJsonObject } from '../../pycompat/py-json.js';
import type { PyJsonFileWriter } from '../../pycompat/py-json-file-writer.js';
import { stringifyPyJson } from '../../pycompat/stringify-py-json.js';
import { INFO_RAW, type RolloutTable } from '../rows/rollout-table.js';
import { VALUE_KIND } from '../rows/value-kind.js';
import type { GymFrame } from './build-gym-frame.js';
import { buildRolloutInfo } from './build-rollout-info.js';
import { computeDescribeStats, DescribeStats } from './compute-describe-stats.js';
import { describeColumns } from './describe-columns.js';
import type { DescribeKeys } from './describe-keys.js';
import { isArrayIndex } from '../rows/is-array-index.js';

const SAMPLE: PyJsonObject = { agent_ref: { name: 'agent' } };
/** Keys that come first in every `rollout_infos` item. */
const INFO_HEAD = new Set(['rollout_id', '_ng_task_index', '_ng_rollout_index']);

/**
 * The `group_level_metrics` of one agent in `gym aggregate` (§4): one entry per task (frame rows
 * `[a, b)` of equal task) with `_ng_task_index`, the describe statistics, `sample`, the rollout
 * counts and `rollout_infos`. Entries can be built as objects ({@link materialize}) or written
 * straight from the frame and the table into a {@link PyJsonFileWriter} ({@link write}, same bytes),
 * which is what keeps a large metrics file cheap: 200k rollouts make 200k `rollout_infos` items.
 *
 * @example
 * const groups = new GymGroupLevels(table, rows, frame, describeKeys(frame.names), false);
 * groups.materialize()[0]; // { _ng_task_index: 0n, 'mean/reward': …, rollout_infos: […] }
 */
export class GymGroupLevels {
  /** Frame row ranges `[a, b)` of each task, ascending. */
  readonly ranges: [number, number][] = [];
  /** Whether the entries {@link attachTo} gave were read or replaced (then that value is written). */
  read = false;

  constructor(
    /** The rows' table ({@link canWrite} depends on it alone: agents of one run share the answer). */
    readonly table: RolloutTable,
    private readonly rows: Int32Array,
    private readonly frame: GymFrame,
    private readonly keys: DescribeKeys,
    private readonly intMaxMin: boolean,
  ) {
    for (let a = 0; a < frame.n;) {
      const t = frame.task[a] as number;
      let b = a + 1;
      while (b < frame.n && frame.task[b] === t) b++;
      this.ranges.push([a, b]);
      a = b;
    }
  }

  /**
   * Makes `target.group_level_metrics` (an existing key, which keeps its position) built by
   * {@link materialize} on first read, so that a writer that has this source can stream the entries
   * instead ({@link write}) as long as nobody has read them.
   */
  attachTo(target: { group_level_metrics: PyJsonObject[] }): void {
    let value: PyJsonObject[] | null = null;
    Object.defineProperty(target, 'group_level_metrics', {
      enumerable: true,
      configurable: true,
      get: () => {
        this.read = true;
        return (value ??= this.materialize());
      },
      set: (v: PyJsonObject[]) => {
        this.read = true;
        value = v;
      },
    });
  }

  /**
   * The entries as objects (Gym's key order). `task` gives a task's `sample` and expected rollout
   * count from its task index, its first table row and its number of rows (default: `gym
   * aggregate`'s, every rollout expected).
   */
  materialize(
    task: (t: number, row: number, n: number) => { sample: PyJson; expected: number } = (_t, _row, n) => ({
      sample: { agent_ref: { name: 'agent' } },
      expected: n,
    }),
  ): PyJsonObject[] {
    const { frame, table, rows } = this;
    const stats = new DescribeStats(this.frame.columns.length);
    return this.ranges.map(([a, b]) => {
      const t = frame.task[a] as number;
      const entry: PyJsonObject = { _ng_task_index: pyInt(t) };
      Object.assign(entry, describeColumns(this.keys, frame.columns, a, b, this.intMaxMin, stats));
      const n = b - a;
      const { sample, expected } = task(t, rows[a] as number, n);
      entry['sample'] = sample;
      entry['num_rollouts'] = pyInt(n);
      entry['expected_num_rollouts'] = pyInt(expected);
      entry['missing_num_rollouts'] = pyInt(expected - n);
      entry['reward_profile_completion_pct'] = (100.0 * n) / expected;
      const infos: PyJson[] = [];
      for (let i = a; i < b; i++) infos.push(buildRolloutInfo(table, rows[i] as number));
      entry['rollout_infos'] = infos;
      return entry;
    });
  }

  /**
   * Whether {@link write} gives the same text as writing {@link materialize}'s objects: not when a
   * `rollout_infos` key is an array index (JavaScript moves it first) or one of the leading keys.
   */
  canWrite(): boolean {
    const { table } = this;
    const used = table.infoKeysUsed();
    return !table.keys.names.some((n, id) => used[id] === 1 && (isArrayIndex(n) || INFO_HEAD.has(n)));
  }

  /** Writes the entries as the array value at `depth` (as `w.value(materialize(), depth)` would). */
  write(w: PyJsonFileWriter, depth: number): void {
    const { frame, table, rows } = this;
    if (this.ranges.length === 0) {
      w.ascii('[]');
      return;
    }
    const layout = new GroupLayout(w, depth, this.keys, table);
    const stats = new DescribeStats(this.frame.columns.length);
    const statValues = [stats.mean, stats.max, stats.min, stats.median, stats.std];
    w.byte(0x5b);
    for (let g = 0; g < this.ranges.length; g++) {
      const [a, b] = this.ranges[g] as [number, number];
      if (g > 0) w.byte(0x2c);
      w.pad(depth + 1);
      w.byte(0x7b);
      w.bytes(layout.kGroupTask);
      w.int(frame.task[a] as number);
      computeDescribeStats(frame.columns, a, b, stats);
      for (let s = 0; s < 5; s++) {
        const values = statValues[s] as Float64Array;
        const asInt = this.intMaxMin && (s === 1 || s === 2);
        layout.statKeys[s]?.forEach((kb, c) => {
          const x = values[c] as number;
          if (x !== x) return;
          w.bytes(kb);
          if (asInt) w.int(x);
          else w.float(x);
        });
      }
      w.ascii(layout.groupCounts(b - a));
      w.byte(0x5b);
      for (let i = a; i < b; i++) writeRolloutInfo(w, layout, rows[i] as number, i > a);
      w.pad(depth + 2);
      w.byte(0x5d);
      w.pad(depth + 1);
      w.byte(0x7d);
    }
    w.pad(depth);
    w.byte(0x5d);
  }
}

/** The fixed bytes of one agent's group entries at a depth (keys with their indents), made once. */
class GroupLayout {
  readonly d4: number;
  readonly kGroupTask: Uint8Array;
  readonly statKeys: Uint8Array[][];
  readonly itemOpen: Uint8Array;
  readonly itemTask: Uint8Array;
  readonly kRollout: Uint8Array;
  readonly itemClose: Uint8Array;
  readonly anyBig: boolean;
  /** Member prefixes of `rollout_infos` keys, by key id, made when first needed. */
  private readonly infoKeys: (Uint8Array | undefined)[] = [];
  /** The text from `sample` to the `[` of `rollout_infos` of a group of `n` rollouts. */
  readonly groupCounts: (n: number) => string;

  constructor(
    private readonly w: PyJsonFileWriter,
    depth: number,
    keys: DescribeKeys,
    readonly table: RolloutTable,
  ) {
    const member = (k: string, d: number, first = false): Uint8Array => w.memberPrefix(k, d, first);
    const d2 = depth + 2;
    this.d4 = depth + 4;
    this.statKeys = [keys.mean, keys.max, keys.min, keys.median, keys.std].map((names) =>
      names.map((k) => member(k, d2)),
    );
    this.kGroupTask = member('_ng_task_index', d2, true);
    const [kSample, kNum, kExpected, kMissing, kPct, kInfos] = [
      'sample',
      'num_rollouts',
      'expected_num_rollouts',
      'missing_num_rollouts',
      'reward_profile_completion_pct',
      'rollout_infos',
    ].map((k) => Buffer.from(member(k, d2)).toString());
    const sample = kSample + stringifyPyJson(SAMPLE, { indent: w.indent, floats: w.floats, level: d2 });
    this.groupCounts = (n) => `${sample}${kNum}${n}${kExpected}${n}${kMissing}0${kPct}100.0${kInfos}`;
    this.kRollout = member('_ng_rollout_index', this.d4);
    this.anyBig = table.hasBigInfo();
    const cat = (...parts: (Uint8Array | string)[]): Uint8Array =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    this.itemOpen = cat(w.padBytes(depth + 3), '{', member('rollout_id', this.d4, true), '"');
    this.itemTask = cat('"', member('_ng_task_index', this.d4));
    this.itemClose = cat(w.padBytes(depth + 3), '}');
  }

  /** The member prefix (`,\n` + indent + quoted key + `: `) of `rollout_infos` key `key`. */
  infoKey(key: number): Uint8Array {
    let kb = this.infoKeys[key];
    if (kb === undefined) {
      kb = this.w.memberPrefix(this.table.keys.names[key] as string, this.d4, false);
      this.infoKeys[key] = kb;
    }
    return kb;
  }
}

/** One `rollout_infos` item of table row `row` (after a comma when `notFirst`). */
function writeRolloutInfo(w: PyJsonFileWriter, layout: GroupLayout, row: number, notFirst: boolean): void {
  const { table, anyBig } = layout;
  const t = table.task[row] as number;
  const r = table.rollout[row] as number;
  const s = table.infoStart[row] as number;
  const e = s + (table.infoLen[row] as number);
  const { infoKind, infoVal, infoKey, infoBig, infoRaw } = table.valuesOf(row);
  if (notFirst) w.byte(0x2c);
  w.bytes(layout.itemOpen);
  w.int(t);
  w.byte(0x3a);
  w.int(r);
  w.bytes(layout.itemTask);
  w.int(t);
  w.bytes(layout.kRollout);
  w.int(r);
  for (let k = s; k < e; k++) {
    w.bytes(layout.infoKey(infoKey[k] as number));
    const kind = infoKind[k] as number;
    const x = infoVal[k] as number;
    const big = anyBig && kind === VALUE_KIND.int ? infoBig.get(k) : undefined;
    if (big !== undefined) w.ascii(big.toString());
    else if (kind === VALUE_KIND.int) w.int(x);
    else if (kind === INFO_RAW) w.value(infoRaw.get(k) ?? null, layout.d4);
    else w.float(x);
  }
  w.bytes(layout.itemClose);
}
