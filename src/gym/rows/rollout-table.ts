import { type GrowableTypedArray, grownTypedArray as grown } from '../../util/grown-typed-array.js';
import { StringIds } from './string-ids.js';
import type { PyJson } from '../../pycompat/py-json.js';
import type { RolloutRow, RowField } from './read-rollout-row.js';
import { VALUE_KIND } from './value-kind.js';

/** Info-entry kind for a raw (non-numeric) `reward`, kept in `infoRaw`. */
export const INFO_RAW = 9;

/** A field that is numeric in some rows and not in others (the others count as missing). */
export interface NonNumericField {
  count: number;
  firstRow: number;
  firstKind: number;
}

/**
 * Where some rows' values are ({@link RolloutTable.valuesOf}): the statistics values and the
 * `rollout_infos` items, each as key id, value and kind at a flat index, with the exact big ints and
 * raw rewards of items by flat index.
 */
export type RowValues = Pick<
  RolloutTable,
  'statKey' | 'statVal' | 'statKind' | 'infoKey' | 'infoVal' | 'infoKind' | 'infoBig' | 'infoRaw'
>;

/** A table's rows as plain data ({@link RolloutTable.toTransfer}), to hand from a worker thread. */
export type RolloutTableTransfer = ReturnType<RolloutTable['toTransfer']>;

/** Whether `map[i] === i` for every `i` (ids that need no remapping). */
function isIdentity(map: Int32Array): boolean {
  for (let i = 0; i < map.length; i++) if (map[i] !== i) return false;
  return true;
}

/**
 * Rollout rows reduced to what Gym's statistics need, in columnar typed arrays: per row its source
 * (file, line, byte range), indices, agent, the ordered numeric field map of the statistics (usage
 * laid over top-level fields, usage wins and keeps the top-level position) and the ordered numeric
 * items of `rollout_infos` (reward first, then usage, then top-level, top-level wins). Memory grows
 * with rows × numeric fields, not with row size.
 *
 * @example
 * const table = new RolloutTable();
 * table.addRow(scratch, fileIndex, lineNo, offset, length);
 */
export class RolloutTable {
  readonly files: string[] = [];
  private readonly agents = new StringIds();
  count = 0;
  private cap = 1024;
  file = new Int32Array(this.cap);
  line = new Float64Array(this.cap);
  offset = new Float64Array(this.cap);
  length = new Float64Array(this.cap);
  task = new Float64Array(this.cap);
  rollout = new Float64Array(this.cap);
  agent = new Int32Array(this.cap);
  statStart = new Uint32Array(this.cap);
  statLen = new Uint32Array(this.cap);
  infoStart = new Uint32Array(this.cap);
  infoLen = new Uint32Array(this.cap);

  private statCap = 8192;
  statCount = 0;
  statKey = new Int32Array(this.statCap);
  statVal = new Float64Array(this.statCap);
  statKind = new Uint8Array(this.statCap);

  private infoCap = 8192;
  infoCount = 0;
  infoKey = new Int32Array(this.infoCap);
  infoVal = new Float64Array(this.infoCap);
  infoKind = new Uint8Array(this.infoCap);
  /** Exact values of big ints in `rollout_infos`, by flat info index. */
  readonly infoBig = new Map<number, bigint>();
  /** Raw non-numeric `reward` values in `rollout_infos`, by flat info index. */
  readonly infoRaw = new Map<number, PyJson>();

  /** Fields numeric in at least one row, by key id. */
  fieldNumeric = new Uint8Array(64);
  /** Fields that are non-numeric (and not null) in some rows. */
  readonly nonNumeric = new Map<number, NonNumericField>();
  /** Optional per-row payload (hook rows, pass@k values), by row index. */
  readonly extra: unknown[] = [];
  /** The values of rows appended from other tables ({@link appendPartRows}), kept where they are. */
  private readonly parts: RowValues[] = [];
  /**
   * Per row: 0 when its values are this table's own, else 1 + its index in {@link parts} (null
   * while every row's values are this table's own).
   */
  private part: Int32Array | null = null;

  /** Field names as ids. */
  readonly keys = new StringIds();

  /** Agent names by id. */
  get agentNames(): readonly string[] {
    return this.agents.names;
  }

  /** The id of agent `name`, given a new one when it is new. */
  agentId(name: string): number {
    return this.agents.idOf(name);
  }

  private resizeRows(n: number): void {
    this.file = grown(this.file, n);
    this.line = grown(this.line, n);
    this.offset = grown(this.offset, n);
    this.length = grown(this.length, n);
    this.task = grown(this.task, n);
    this.rollout = grown(this.rollout, n);
    this.agent = grown(this.agent, n);
    this.statStart = grown(this.statStart, n);
    this.statLen = grown(this.statLen, n);
    this.infoStart = grown(this.infoStart, n);
    this.infoLen = grown(this.infoLen, n);
    if (this.part !== null) this.part = grown(this.part, n);
    this.cap = n;
  }

  /** Where the values of row `r` are: this table itself, or the table its row was appended from. */
  valuesOf(r: number): RowValues {
    const p = this.part === null ? 0 : (this.part[r] as number);
    return p === 0 ? this : (this.parts[p - 1] as RowValues);
  }

  /** Which key ids name a `rollout_infos` item of some row (1 at the id). */
  infoKeysUsed(): Uint8Array {
    const used = new Uint8Array(this.keys.names.length);
    for (let k = 0; k < this.infoCount; k++) used[this.infoKey[k] as number] = 1;
    for (const p of this.parts) for (const key of p.infoKey) used[key] = 1;
    return used;
  }

  /** Whether some `rollout_infos` item is an int beyond 2^53 kept exactly. */
  hasBigInfo(): boolean {
    return this.infoBig.size > 0 || this.parts.some((p) => p.infoBig.size > 0);
  }

  /**
   * Makes room for at least `rows` rows, `stats` statistics values and `infos` `rollout_infos` items
   * in all (e.g. an estimate for a whole input), so that appending them copies no column again.
   */
  reserve(rows: number, stats: number, infos: number): void {
    if (rows > this.cap) this.resizeRows(rows);
    if (stats > this.statCap) this.resizeStats(stats);
    if (infos > this.infoCap) this.resizeInfos(infos);
  }

  /** Room for `n` statistics values (key, value, kind). */
  private resizeStats(n: number): void {
    this.statKey = grown(this.statKey, n);
    this.statVal = grown(this.statVal, n);
    this.statKind = grown(this.statKind, n);
    this.statCap = n;
  }

  /** Room for `n` `rollout_infos` items (key, value, kind). */
  private resizeInfos(n: number): void {
    this.infoKey = grown(this.infoKey, n);
    this.infoVal = grown(this.infoVal, n);
    this.infoKind = grown(this.infoKind, n);
    this.infoCap = n;
  }

  private pushStat(key: number, kind: number, value: number): void {
    if (this.statCount === this.statCap) this.resizeStats(this.statCap * 2);
    this.statKey[this.statCount] = key;
    this.statVal[this.statCount] = value;
    this.statKind[this.statCount] = kind;
    this.statCount++;
    if (key >= this.fieldNumeric.length)
      this.fieldNumeric = grown(this.fieldNumeric, Math.max(key + 1, this.fieldNumeric.length * 2));
    this.fieldNumeric[key] = 1;
  }

  private noteNonNumeric(key: number, kind: number, row: number): void {
    if (kind === VALUE_KIND.null) return;
    const e = this.nonNumeric.get(key);
    if (e) e.count++;
    else this.nonNumeric.set(key, { count: 1, firstRow: row, firstKind: kind });
  }

  /** Per key id: the row (plus one) whose `rollout_infos` last took the key, and at which item. */
  private infoRowOf = new Int32Array(64);
  private infoAtOf = new Uint32Array(64);

  /**
   * Sets the `rollout_infos` item of field `f` (whose `id` is set) of row `r`, whose items start at
   * `first`: in place when the row already has the key, else appended.
   */
  private putInfo(f: RowField, r: number, first: number): void {
    const key = f.id as number;
    if (key >= this.infoRowOf.length) {
      const n = Math.max(key + 1, this.infoRowOf.length * 2);
      this.infoRowOf = grown(this.infoRowOf, n);
      this.infoAtOf = grown(this.infoAtOf, n);
    }
    let at: number;
    if (this.infoRowOf[key] === r + 1 && (this.infoAtOf[key] as number) >= first) {
      at = this.infoAtOf[key] as number;
      this.infoBig.delete(at);
      this.infoRaw.delete(at);
    } else {
      if (this.infoCount === this.infoCap) this.resizeInfos(this.infoCap * 2);
      at = this.infoCount++;
      this.infoKey[at] = key;
      this.infoRowOf[key] = r + 1;
      this.infoAtOf[key] = at;
    }
    const numeric = f.kind === VALUE_KIND.float || f.kind === VALUE_KIND.int;
    this.infoKind[at] = numeric ? f.kind : INFO_RAW;
    this.infoVal[at] = f.value;
    if (numeric && f.big !== null) this.infoBig.set(at, f.big);
    if (!numeric) this.infoRaw.set(at, f.raw ?? null);
  }

  /**
   * Appends the row `s` read by `readRolloutRow` (with both indices). `agent` is the agent id (-1: no
   * agent). Returns the row index.
   */
  addRow(s: RolloutRow, file: number, line: number, offset: number, length: number, agent: number): number {
    if (this.count === this.cap) this.resizeRows(this.cap * 2);
    const r = this.count++;
    this.file[r] = file;
    this.line[r] = line;
    this.offset[r] = offset;
    this.length[r] = length;
    this.task[r] = s.task ?? 0;
    this.rollout[r] = s.rollout ?? 0;
    this.agent[r] = agent;

    const { top, usage } = s;
    const { keys } = this;
    // statistics: top-level fields, usage values replacing same-named ones in place, new usage keys last
    const statStart = this.statCount;
    const hasUsage = usage.size > 0;
    for (const [name, t] of top) {
      const f = hasUsage ? (usage.get(name) ?? t) : t;
      const key = keys.idOf(name);
      t.id = key;
      if (f.kind === VALUE_KIND.float || f.kind === VALUE_KIND.int) this.pushStat(key, f.kind, f.value);
      else this.noteNonNumeric(key, f.kind, r);
    }
    for (const [name, f] of usage) {
      const key = keys.idOf(name);
      f.id = key;
      if (name === '_ng_task_index' || name === '_ng_rollout_index' || top.has(name)) continue;
      if (f.kind === VALUE_KIND.float || f.kind === VALUE_KIND.int) this.pushStat(key, f.kind, f.value);
      else this.noteNonNumeric(key, f.kind, r);
    }
    this.statStart[r] = statStart;
    this.statLen[r] = this.statCount - statStart;

    // rollout_infos (a dict): reward (any value) first, then numeric usage items, then the other
    // numeric top-level items, a later one taking the value at the earlier one's position
    const infoStart = this.infoCount;
    const reward = top.get('reward');
    if (reward !== undefined) this.putInfo(reward, r, infoStart);
    for (const f of usage.values())
      if (f.kind === VALUE_KIND.float || f.kind === VALUE_KIND.int) this.putInfo(f, r, infoStart);
    for (const f of top.values()) {
      if (f !== reward && (f.kind === VALUE_KIND.float || f.kind === VALUE_KIND.int))
        this.putInfo(f, r, infoStart);
    }
    this.infoStart[r] = infoStart;
    this.infoLen[r] = this.infoCount - infoStart;
    return r;
  }

  /**
   * The rows as plain data (see {@link appendPartRows}): views of this table's columns, trimmed to
   * their length. Their buffers (each column has its own) can be transferred to another thread
   * instead of copied: the table is not used any more then.
   */
  toTransfer() {
    const n = this.count;
    const trim = <T extends GrowableTypedArray>(a: T, length: number): T => a.subarray(0, length) as T;
    return {
      names: [...this.keys.names],
      agentNames: [...this.agentNames],
      count: n,
      line: trim(this.line, n),
      offset: trim(this.offset, n),
      length: trim(this.length, n),
      task: trim(this.task, n),
      rollout: trim(this.rollout, n),
      agent: trim(this.agent, n),
      statStart: trim(this.statStart, n),
      statLen: trim(this.statLen, n),
      infoStart: trim(this.infoStart, n),
      infoLen: trim(this.infoLen, n),
      statKey: trim(this.statKey, this.statCount),
      statVal: trim(this.statVal, this.statCount),
      statKind: trim(this.statKind, this.statCount),
      infoKey: trim(this.infoKey, this.infoCount),
      infoVal: trim(this.infoVal, this.infoCount),
      infoKind: trim(this.infoKind, this.infoCount),
      infoBig: [...this.infoBig],
      infoRaw: [...this.infoRaw],
      fieldNumeric: this.fieldNumeric,
      nonNumeric: [...this.nonNumeric],
    };
  }

  /**
   * Appends the rows of another table (e.g. built by a worker from a byte range of file `fileIndex`),
   * `lineOffset` added to their line numbers, their agent ids remapped. Their values stay in `part`'s
   * arrays (see {@link valuesOf}); they can be read once {@link adoptPartValues} has remapped their
   * key ids. Parts are appended in the order of their rows.
   */
  appendPartRows(part: RolloutTableTransfer, fileIndex: number, lineOffset: number): void {
    const agentMap = Int32Array.from(part.agentNames, (name) => this.agentId(name));
    const rowBase = this.count;
    const n = part.count;
    if (this.cap < rowBase + n) this.resizeRows(Math.max(rowBase + n, this.cap * 2));
    this.part ??= new Int32Array(this.cap);
    this.parts.push({
      statKey: part.statKey,
      statVal: part.statVal,
      statKind: part.statKind,
      infoKey: part.infoKey,
      infoVal: part.infoVal,
      infoKind: part.infoKind,
      infoBig: new Map(part.infoBig),
      infoRaw: new Map(part.infoRaw),
    });
    this.part.fill(this.parts.length, rowBase, rowBase + n);
    // whole columns are copied at once; only line numbers and agent ids that differ one by one
    this.file.fill(fileIndex, rowBase, rowBase + n);
    this.offset.set(part.offset, rowBase);
    this.length.set(part.length, rowBase);
    this.task.set(part.task, rowBase);
    this.rollout.set(part.rollout, rowBase);
    this.statStart.set(part.statStart, rowBase);
    this.statLen.set(part.statLen, rowBase);
    this.infoStart.set(part.infoStart, rowBase);
    this.infoLen.set(part.infoLen, rowBase);
    for (let i = 0; i < n; i++) this.line[rowBase + i] = (part.line[i] as number) + lineOffset;
    if (isIdentity(agentMap)) this.agent.set(part.agent, rowBase);
    else
      for (let i = 0; i < n; i++) {
        const a = part.agent[i] as number;
        this.agent[rowBase + i] = a < 0 ? -1 : (agentMap[a] as number);
      }
    this.count = rowBase + n;
  }

  /**
   * Makes the values of `part`, whose rows {@link appendPartRows} put at `rowBase`, readable: their
   * key ids are rewritten in place to this table's, and the fields they make numeric or not are
   * added. Called in the order of the rows, so that keys and warnings come in file order.
   */
  adoptPartValues(part: RolloutTableTransfer, rowBase: number): void {
    const keyMap = Int32Array.from(part.names, (name) => this.keys.idOf(name));
    if (!isIdentity(keyMap)) {
      for (const keys of [part.statKey, part.infoKey])
        for (let k = 0; k < keys.length; k++) keys[k] = keyMap[keys[k] as number] as number;
    }
    part.fieldNumeric.forEach((on, key) => {
      if (!on) return;
      const id = keyMap[key] as number;
      if (id >= this.fieldNumeric.length)
        this.fieldNumeric = grown(this.fieldNumeric, Math.max(id + 1, this.fieldNumeric.length * 2));
      this.fieldNumeric[id] = 1;
    });
    for (const [key, info] of part.nonNumeric) {
      const id = keyMap[key] as number;
      const e = this.nonNumeric.get(id);
      if (e) e.count += info.count;
      else
        this.nonNumeric.set(id, {
          count: info.count,
          firstRow: rowBase + info.firstRow,
          firstKind: info.firstKind,
        });
    }
  }
}
