import { pyInt } from '../py-int.js';
import type { PyJson, PyJsonObject } from '../py-json.js';
import type { PyJsonFileWriter } from '../py-json-file-writer.js';
import { MAX_NUMBER_BYTES, putPyFloat, putSafeInt } from '../py-number-bytes.js';
import { INFO_RAW, type RolloutTable } from '../rows/rollout-table.js';
import { VALUE_KIND } from '../rows/value-kind.js';
import type { GymFrame } from './build-gym-frame.js';
import { buildRolloutInfo } from './build-rollout-info.js';
import { computeDescribeStats, type DescribeStats } from './compute-describe-stats.js';
import type { DescribeKeys } from './describe-keys.js';

const SAMPLE: PyJsonObject = { agent_ref: { name: 'agent' } };
/** Keys that come first in every `rollout_infos` item. */
const INFO_HEAD = new Set(['rollout_id', '_ng_task_index', '_ng_rollout_index']);

/** Whether JavaScript puts `name` before the other keys of an object (an array index). */
function isArrayIndex(name: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(name) && Number(name) < 4294967295;
}

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

  private newStats(): DescribeStats {
    const m = this.frame.columns.length;
    return {
      mean: new Float64Array(m),
      max: new Float64Array(m),
      min: new Float64Array(m),
      median: new Float64Array(m),
      std: new Float64Array(m),
    };
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

  /** The entries as objects (Gym's key order). */
  materialize(): PyJsonObject[] {
    const { frame, keys, table, rows, intMaxMin } = this;
    const stats = this.newStats();
    const m = frame.columns.length;
    return this.ranges.map(([a, b]) => {
      const entry: PyJsonObject = { _ng_task_index: pyInt(frame.task[a] as number) };
      computeDescribeStats(frame.columns, a, b, stats);
      const put = (names: string[], values: Float64Array, asInt: boolean): void => {
        for (let c = 0; c < m; c++) {
          const x = values[c] as number;
          if (x === x) entry[names[c] as string] = asInt ? BigInt(x) : x;
        }
      };
      put(keys.mean, stats.mean, false);
      put(keys.max, stats.max, intMaxMin);
      put(keys.min, stats.min, intMaxMin);
      put(keys.median, stats.median, false);
      put(keys.std, stats.std, false);
      entry['sample'] = { agent_ref: { name: 'agent' } };
      entry['num_rollouts'] = pyInt(b - a);
      entry['expected_num_rollouts'] = pyInt(b - a);
      entry['missing_num_rollouts'] = 0n;
      entry['reward_profile_completion_pct'] = 100.0;
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
    const used = new Uint8Array(table.keys.names.length);
    for (let k = 0; k < table.infoCount; k++) used[table.infoKey[k] as number] = 1;
    return !table.keys.names.some((n, id) => used[id] === 1 && (isArrayIndex(n) || INFO_HEAD.has(n)));
  }

  /** Writes the entries as the array value at `depth` (as `w.value(materialize(), depth)` would). */
  write(w: PyJsonFileWriter, depth: number): void {
    const { frame, keys, table, rows, intMaxMin } = this;
    if (this.ranges.length === 0) {
      w.ascii('[]');
      return;
    }
    const m = frame.columns.length;
    const stats = this.newStats();
    const member = (k: string, d: number, first = false): Uint8Array => w.memberPrefix(k, d, first);
    const d1 = depth + 1;
    const d2 = depth + 2;
    const d3 = depth + 3;
    const d4 = depth + 4;
    const statKeys = [keys.mean, keys.max, keys.min, keys.median, keys.std].map((names) =>
      names.map((k) => member(k, d2)),
    );
    const statValues = [stats.mean, stats.max, stats.min, stats.median, stats.std];
    let statRoom = 0;
    for (const sk of statKeys) for (const kb of sk) statRoom += kb.length + MAX_NUMBER_BYTES;
    const names = table.keys.names;
    const infoKeys: (Uint8Array | undefined)[] = [];
    // room for one item member: the comma, newline and indent, the key (at most 6 bytes a UTF-16
    // unit, `\u0000`), its quotes, `: ` and the number
    let longestName = 0;
    for (const n of names) if (n.length > longestName) longestName = n.length;
    const memberRoom = w.padBytes(d4).length + 6 * longestName + 5 + MAX_NUMBER_BYTES;
    const kGroupTask = member('_ng_task_index', d2, true);
    const kTask = member('_ng_task_index', d4);
    const kRollout = member('_ng_rollout_index', d4);
    const kId = member('rollout_id', d4, true);
    const kSample = member('sample', d2);
    const kNum = member('num_rollouts', d2);
    const kExpected = member('expected_num_rollouts', d2);
    const kMissing = member('missing_num_rollouts', d2);
    const kPct = member('reward_profile_completion_pct', d2);
    const kInfos = member('rollout_infos', d2);
    const indented = w.indent > 0;
    const floats = w.floats;
    const anyBig = table.infoBig.size > 0;
    const { infoKey, infoKind, infoVal, infoStart, infoLen } = table;
    // the fixed bytes around an item's numbers, each copied at once
    const cat = (...parts: (Uint8Array | string)[]): Uint8Array =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    const itemOpen = cat(w.padBytes(d3), '{', kId, '"');
    const itemOpenNext = cat(',', itemOpen);
    const itemTask = cat('"', kTask);
    const itemClose = cat(w.padBytes(d3), '}');
    const itemRoom =
      itemOpenNext.length + itemTask.length + kRollout.length + itemClose.length + 1 + 4 * MAX_NUMBER_BYTES;
    w.byte(0x5b);
    for (let g = 0; g < this.ranges.length; g++) {
      const [a, b] = this.ranges[g] as [number, number];
      if (g > 0) w.byte(0x2c);
      if (indented) w.pad(d1);
      w.byte(0x7b);
      w.bytes(kGroupTask);
      w.int(frame.task[a] as number);
      computeDescribeStats(frame.columns, a, b, stats);
      // the statistics: room for all of them at once, numbers written in place
      let buf = w.reserve(statRoom);
      let u = w.position;
      for (let s = 0; s < 5; s++) {
        const values = statValues[s] as Float64Array;
        const sk = statKeys[s] as Uint8Array[];
        const asInt = intMaxMin && (s === 1 || s === 2);
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
      w.bytes(kSample);
      w.value(SAMPLE, d2);
      w.bytes(kNum);
      w.uint(b - a);
      w.bytes(kExpected);
      w.uint(b - a);
      w.bytes(kMissing);
      w.uint(0);
      w.bytes(kPct);
      w.float(100.0);
      w.bytes(kInfos);
      w.byte(0x5b);
      for (let i = a; i < b; i++) {
        const row = rows[i] as number;
        const t = table.task[row] as number;
        const r = table.rollout[row] as number;
        const s = infoStart[row] as number;
        const e = s + (infoLen[row] as number);
        // one item: room for all of it, then every token written in place (the indices are safe
        // ints: larger ones are refused when the row is read)
        buf = w.reserve(itemRoom + (e - s) * memberRoom);
        u = w.position;
        const open = i > a ? itemOpenNext : itemOpen;
        buf.set(open, u);
        u = putSafeInt(buf, u + open.length, t);
        buf[u++] = 0x3a;
        u = putSafeInt(buf, u, r);
        buf.set(itemTask, u);
        u = putSafeInt(buf, u + itemTask.length, t);
        buf.set(kRollout, u);
        u = putSafeInt(buf, u + kRollout.length, r);
        for (let k = s; k < e; k++) {
          const key = infoKey[k] as number;
          let kb = infoKeys[key];
          if (kb === undefined) {
            kb = member(names[key] as string, d4);
            infoKeys[key] = kb;
          }
          buf.set(kb, u);
          u += kb.length;
          const kind = infoKind[k] as number;
          const x = infoVal[k] as number;
          if (kind === VALUE_KIND.float) u = putPyFloat(buf, u, x, floats);
          else if (
            kind === VALUE_KIND.int &&
            x >= -9007199254740991 &&
            x <= 9007199254740991 &&
            !(anyBig && table.infoBig.has(k))
          )
            u = putSafeInt(buf, u, x);
          else {
            // a big int or a raw reward: through the writer, then room for the rest again
            w.position = u;
            const big = kind === VALUE_KIND.int ? table.infoBig.get(k) : undefined;
            if (big !== undefined) w.ascii(big.toString());
            else if (kind === VALUE_KIND.int) w.int(x);
            else if (kind === INFO_RAW) w.value(table.infoRaw.get(k) ?? null, d4);
            else w.float(x);
            buf = w.reserve(itemRoom + (e - k) * memberRoom);
            u = w.position;
          }
        }
        buf.set(itemClose, u);
        w.position = u + itemClose.length;
      }
      if (indented) w.pad(d2);
      w.byte(0x5d);
      if (indented) w.pad(d1);
      w.byte(0x7d);
    }
    if (indented) w.pad(depth);
    w.byte(0x5d);
  }
}
