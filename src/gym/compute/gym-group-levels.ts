import { pyInt } from '../../pycompat/py-int.js';
import type { PyJson, PyJsonObject } from '../../pycompat/py-json.js';
import type { PyJsonFileWriter } from '../../pycompat/py-json-file-writer.js';
import { MAX_NUMBER_BYTES, putPyFloat, putSafeInt } from '../../pycompat/py-number-bytes.js';
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
  private static readonly pending = new WeakMap<object, GymGroupLevels>();

  /** The source attached to `target` by {@link attachTo} whose entries have not been read yet. */
  static pendingFor(target: object): GymGroupLevels | undefined {
    return GymGroupLevels.pending.get(target);
  }

  /** Frame row ranges `[a, b)` of each task, ascending. */
  readonly ranges: [number, number][] = [];

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
   * {@link materialize} on first read; until then {@link pendingFor} returns this source, so a writer
   * can stream the entries instead.
   */
  attachTo(target: { group_level_metrics: PyJsonObject[] }): void {
    GymGroupLevels.pending.set(target, this);
    let value: PyJsonObject[] | null = null;
    Object.defineProperty(target, 'group_level_metrics', {
      enumerable: true,
      configurable: true,
      get: () => {
        if (value === null) {
          value = this.materialize();
          GymGroupLevels.pending.delete(target);
        }
        return value;
      },
      set: (v: PyJsonObject[]) => {
        value = v;
        GymGroupLevels.pending.delete(target);
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
    const layout = new GroupLayout(w, depth, this.keys, table, this.intMaxMin);
    const stats = new DescribeStats(this.frame.columns.length);
    const statValues = [stats.mean, stats.max, stats.min, stats.median, stats.std];
    const d1 = depth + 1;
    const indented = w.indent > 0;
    w.byte(0x5b);
    for (let g = 0; g < this.ranges.length; g++) {
      const [a, b] = this.ranges[g] as [number, number];
      if (g > 0) w.byte(0x2c);
      if (indented) w.pad(d1);
      w.byte(0x7b);
      w.bytes(layout.kGroupTask);
      w.int(frame.task[a] as number);
      computeDescribeStats(frame.columns, a, b, stats);
      writeGroupStats(w, layout, statValues);
      writeGroupCounts(w, layout, b - a);
      w.byte(0x5b);
      for (let i = a; i < b; i++) writeRolloutInfo(w, layout, rows[i] as number, i > a);
      if (indented) w.pad(layout.d2);
      w.byte(0x5d);
      if (indented) w.pad(d1);
      w.byte(0x7d);
    }
    if (indented) w.pad(depth);
    w.byte(0x5d);
  }
}

/**
 * The fixed bytes of one agent's group entries at a depth (keys with their indents, the text around
 * an item's numbers) and the room each part needs, made once per {@link GymGroupLevels.write}.
 */
class GroupLayout {
  readonly floats: 'orjson' | 'repr';
  readonly d2: number;
  readonly d4: number;
  readonly kGroupTask: Uint8Array;
  readonly statKeys: Uint8Array[][];
  readonly statRoom: number;
  readonly kSample: Uint8Array;
  readonly kNum: Uint8Array;
  readonly kExpected: Uint8Array;
  readonly kMissing: Uint8Array;
  readonly kPct: Uint8Array;
  readonly kInfos: Uint8Array;
  readonly kRollout: Uint8Array;
  readonly itemOpen: Uint8Array;
  readonly itemOpenNext: Uint8Array;
  readonly itemTask: Uint8Array;
  readonly itemClose: Uint8Array;
  readonly itemRoom: number;
  readonly memberRoom: number;
  readonly anyBig: boolean;
  /** Member prefixes of `rollout_infos` keys, by key id, made when first needed. */
  private readonly infoKeys: (Uint8Array | undefined)[] = [];

  constructor(
    private readonly w: PyJsonFileWriter,
    depth: number,
    keys: DescribeKeys,
    readonly table: RolloutTable,
    readonly intMaxMin: boolean,
  ) {
    const member = (k: string, d: number, first = false): Uint8Array => w.memberPrefix(k, d, first);
    this.floats = w.floats;
    const d2 = depth + 2;
    const d3 = depth + 3;
    const d4 = depth + 4;
    this.d2 = d2;
    this.d4 = d4;
    this.statKeys = [keys.mean, keys.max, keys.min, keys.median, keys.std].map((names) =>
      names.map((k) => member(k, d2)),
    );
    let statRoom = 0;
    for (const sk of this.statKeys) for (const kb of sk) statRoom += kb.length + MAX_NUMBER_BYTES;
    this.statRoom = statRoom;
    // room for one item member: the comma, newline and indent, the key (at most 6 bytes a UTF-16
    // unit, `\u0000`), its quotes, `: ` and the number
    let longestName = 0;
    for (const n of table.keys.names) if (n.length > longestName) longestName = n.length;
    this.memberRoom = w.padBytes(d4).length + 6 * longestName + 5 + MAX_NUMBER_BYTES;
    this.kGroupTask = member('_ng_task_index', d2, true);
    const kTask = member('_ng_task_index', d4);
    this.kRollout = member('_ng_rollout_index', d4);
    const kId = member('rollout_id', d4, true);
    this.kSample = member('sample', d2);
    this.kNum = member('num_rollouts', d2);
    this.kExpected = member('expected_num_rollouts', d2);
    this.kMissing = member('missing_num_rollouts', d2);
    this.kPct = member('reward_profile_completion_pct', d2);
    this.kInfos = member('rollout_infos', d2);
    this.anyBig = table.hasBigInfo();
    // the fixed bytes around an item's numbers, each copied at once
    const cat = (...parts: (Uint8Array | string)[]): Uint8Array =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    this.itemOpen = cat(w.padBytes(d3), '{', kId, '"');
    this.itemOpenNext = cat(',', this.itemOpen);
    this.itemTask = cat('"', kTask);
    this.itemClose = cat(w.padBytes(d3), '}');
    this.itemRoom =
      this.itemOpenNext.length +
      this.itemTask.length +
      this.kRollout.length +
      this.itemClose.length +
      1 +
      4 * MAX_NUMBER_BYTES;
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

/**
 * A group's describe statistics: `statValues` holds the mean, max, min, median and std of each
 * column (NaN left out).
 */
function writeGroupStats(w: PyJsonFileWriter, layout: GroupLayout, statValues: Float64Array[]): void {
  const { statKeys, statRoom, floats, intMaxMin } = layout;
  // room for all of them at once, numbers written in place
  let buf = w.reserve(statRoom);
  let u = w.position;
  for (let s = 0; s < 5; s++) {
    const values = statValues[s] as Float64Array;
    const sk = statKeys[s] as Uint8Array[];
    const asInt = intMaxMin && (s === 1 || s === 2);
    const m = sk.length;
    for (let c = 0; c < m; c++) {
      const x = values[c] as number;
      if (x !== x) continue;
      const kb = sk[c] as Uint8Array;
      buf.set(kb, u);
      u += kb.length;
      if (!asInt) u = putPyFloat(buf, u, x, floats);
      else if (x >= -9007199254740991 && x <= 9007199254740991) u = putSafeInt(buf, u, x);
      else {
        // an int beyond 2^53 (its exact digits are long): through the writer
        w.position = u;
        w.int(x);
        buf = w.reserve(statRoom);
        u = w.position;
      }
    }
  }
  w.position = u;
}

/** A group's `sample`, its rollout counts and the `rollout_infos` key, up to the list's `[`. */
function writeGroupCounts(w: PyJsonFileWriter, layout: GroupLayout, n: number): void {
  w.bytes(layout.kSample);
  w.value(SAMPLE, layout.d2);
  w.bytes(layout.kNum);
  w.uint(n);
  w.bytes(layout.kExpected);
  w.uint(n);
  w.bytes(layout.kMissing);
  w.uint(0);
  w.bytes(layout.kPct);
  w.float(100.0);
  w.bytes(layout.kInfos);
}

/**
 * One `rollout_infos` item of table row `row` (after a comma when `notFirst`): room for all of it,
 * then every token written in place. The indices are safe ints (larger ones are refused when the
 * row is read); big ints and raw rewards go through the writer.
 */
function writeRolloutInfo(w: PyJsonFileWriter, layout: GroupLayout, row: number, notFirst: boolean): void {
  const { table, itemRoom, memberRoom, floats, anyBig } = layout;
  const t = table.task[row] as number;
  const r = table.rollout[row] as number;
  const s = table.infoStart[row] as number;
  const e = s + (table.infoLen[row] as number);
  const { infoKind, infoVal, infoKey, infoBig, infoRaw } = table.valuesOf(row);
  let buf = w.reserve(itemRoom + (e - s) * memberRoom);
  let u = w.position;
  const open = notFirst ? layout.itemOpenNext : layout.itemOpen;
  buf.set(open, u);
  u = putSafeInt(buf, u + open.length, t);
  buf[u++] = 0x3a;
  u = putSafeInt(buf, u, r);
  const itemTask = layout.itemTask;
  buf.set(itemTask, u);
  u = putSafeInt(buf, u + itemTask.length, t);
  const kRollout = layout.kRollout;
  buf.set(kRollout, u);
  u = putSafeInt(buf, u + kRollout.length, r);
  for (let k = s; k < e; k++) {
    const kb = layout.infoKey(infoKey[k] as number);
    buf.set(kb, u);
    u += kb.length;
    const kind = infoKind[k] as number;
    const x = infoVal[k] as number;
    if (kind === VALUE_KIND.float) u = putPyFloat(buf, u, x, floats);
    else if (
      kind === VALUE_KIND.int &&
      x >= -9007199254740991 &&
      x <= 9007199254740991 &&
      !(anyBig && infoBig.has(k))
    )
      u = putSafeInt(buf, u, x);
    else {
      // a big int or a raw reward: through the writer, then room for the rest again
      w.position = u;
      const big = kind === VALUE_KIND.int ? infoBig.get(k) : undefined;
      if (big !== undefined) w.ascii(big.toString());
      else if (kind === VALUE_KIND.int) w.int(x);
      else if (kind === INFO_RAW) w.value(infoRaw.get(k) ?? null, layout.d4);
      else w.float(x);
      buf = w.reserve(itemRoom + (e - k) * memberRoom);
      u = w.position;
    }
  }
  const itemClose = layout.itemClose;
  buf.set(itemClose, u);
  w.position = u + itemClose.length;
}
