import type { JsonValue } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import { trialDiagnosticPlace } from '../model/trial-diagnostic-place.js';
import type { Trial } from '../model/trial.js';
import { boxNonFinite, cutText } from './compact-json.js';
import { embedJson, JsonTextColumn } from './embed-json.js';
import { grownTypedArray } from '../util/grown-typed-array.js';

const STATUS_CHAR: Record<string, string> = { completed: 'c', partial: 'p', failed: 'f' };

/** What a row keeps of a score: its metric type, status and output values. */
export type RowScore = Pick<ScoreRecord, 'metric_type' | 'status' | 'outputs'>;

/** A metric output value as the columnar embed stores it (see `ReportData.values`). */
function columnValue(value: JsonValue | undefined): JsonValue {
  if (value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : boxNonFinite(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return cutText(value, 200);
  return { $o: value === null ? 'null' : Array.isArray(value) ? 'list' : 'object' };
}

/** One metric type: the status char of each open row's first score of the type, and its sealed text. */
interface TypeColumn {
  open: (string | undefined)[];
  text: JsonTextColumn | null;
  /** Output name → its `type.output` column. */
  outputs: Map<string, OutputColumn>;
}

/** One `type.output`: the value of each open row (holes: absent), and its sealed text. */
interface OutputColumn {
  open: (JsonValue | undefined)[];
  text: JsonTextColumn | null;
}

/** The per-row columns of the embedded JSON: plain values, or (rows sealed) their JSON text. */
export type ReportTable =
  | { kind: 'plain'; id: string[]; status: string; scoreStatus: string[]; values: JsonValue[][] }
  | {
      kind: 'text';
      id: JsonTextColumn;
      status: JsonTextColumn;
      scoreStatus: JsonTextColumn[];
      values: JsonTextColumn[];
    };

/**
 * The report's per-trial table, filled one trial at a time and kept compact: per row a task (run
 * lengths), the trial id, one status char, the error type and the input diagnostics (sparse), and per
 * metric type the status of the row's first score of that type and its output values (strings cut to
 * 200 chars). A score is matched to a row by (task, trial id): the i-th score of a metric type goes to
 * the i-th trial with that pair, scores beyond the trial records stay on the last record, and scores
 * of trials without a record get a row of their own (status `?`).
 *
 * A stream seals each row once its trial has passed (`seal`): the row's columns are then written
 * as the JSON text the report embeds (`JsonTextColumn`, outside the heap) and nothing else of it is
 * kept, except the values of rows whose detail the report keeps (until `release`). A sealed row takes
 * no more scores. Without sealing (a bundle read back) rows stay open, as plain arrays.
 *
 * @example
 * const rows = new ReportRows();
 * const row = rows.addTrial(trial);
 * for (const score of scores) rows.addScore(score, row);
 * rows.seal(row, false);
 */
export class ReportRows {
  readonly taskIds: string[] = [];
  readonly #taskIndex = new Map<string, number>();
  /** Task of every row, run-length encoded: `[task, count, task, count, …]` (`#runsLength` used). */
  #taskRuns = new Int32Array(16);
  #runsLength = 0;
  /** Rows before this one are sealed; the `open` arrays hold rows from here on. */
  #base = 0;
  #count = 0;
  readonly #openTask: number[] = [];
  readonly #openId: string[] = [];
  readonly #openStatus: string[] = [];
  /** Whether the row came from a trial record (false: scores only). */
  readonly #fromTrial: boolean[] = [];
  #idText: JsonTextColumn | null = null;
  #statusText: JsonTextColumn | null = null;
  /** Values of sealed rows whose detail is kept, by row and `type.output`. */
  readonly #kept = new Map<number, Map<string, JsonValue>>();
  readonly errorRows: number[] = [];
  readonly errorOfRow: number[] = [];
  readonly errorTypes: string[] = [];
  readonly #errorTypeIndex = new Map<string, number>();
  /** Per metric type, in first-seen order. */
  readonly #types = new Map<string, TypeColumn>();
  /** Per `type.output`, in first-seen order. */
  readonly #outputs = new Map<string, OutputColumn>();
  /** `type.output` pairs seen in scores, in arrival order. */
  readonly seenOutputs = new Map<string, [string, string]>();
  /** Per row with input diagnostics: how many, and what the table shows of them (bounded). */
  readonly #diagnostics = new Map<number, { count: number; shown: string[] }>();
  /** Input diagnostics per code, all rows together. */
  readonly diagnosticsByCode = new Map<string, number>();
  readonly trialStatus = { completed: 0, partial: 0, failed: 0 };
  readonly scoreStatus = { completed: 0, partial: 0, failed: 0 };
  /**
   * Open rows by task id, then trial id (ids need not be unique: a list per pair), built at the first
   * lookup by key: a stream names each score's row, so it never holds an entry per trial here.
   */
  #rowsByKey: Map<string, Map<string, number | number[]>> | null = null;
  #table: ReportTable | null = null;

  /** Number of rows. */
  get count(): number {
    return this.#count;
  }

  /** Index of a task id, added on first sight. */
  addTask(id: string): number {
    let index = this.#taskIndex.get(id);
    if (index === undefined) {
      index = this.taskIds.length;
      this.#taskIndex.set(id, index);
      this.taskIds.push(id);
    }
    return index;
  }

  /** Metric types of the scores, in first-seen order. */
  metricTypes(): string[] {
    return [...this.#types.keys()];
  }

  /** The task of every row, run-length encoded: `[task, count, task, count, …]` (a new array). */
  taskRuns(): number[] {
    return Array.from(this.#taskRuns.subarray(0, this.#runsLength));
  }

  /**
   * The values of output `key` (`type.output`) for every row, absent ones as null (a new column of
   * nulls for an output no score carried). Open rows: the column itself, filled in place (the table is
   * done when it is read); sealed rows: parsed from their text.
   */
  valueColumn(key: string): JsonValue[] {
    const column = this.#outputs.get(key);
    if (column === undefined) return new Array<JsonValue>(this.#count).fill(null);
    if (this.#base > 0) {
      this.#tableText();
      return (column.text as JsonTextColumn).value() as JsonValue[];
    }
    for (let row = 0; row < this.#count; row += 1) column.open[row] ??= null;
    return column.open as JsonValue[];
  }

  /** The value of output `key` in `row`, while the row is open or its values are kept, else undefined. */
  valueAt(key: string, row: number): JsonValue | undefined {
    if (row >= this.#base) return this.#outputs.get(key)?.open[row - this.#base];
    return this.#kept.get(row)?.get(key);
  }

  /**
   * The per-row columns of the embedded JSON, for these metric types and outputs in this order: plain
   * arrays while no row was sealed, else JSON text (the open rows are sealed then, their values kept).
   * The table is done once this is asked.
   */
  table(metricTypes: readonly string[], keys: readonly string[]): ReportTable {
    if (this.#table !== null) return this.#table;
    if (this.#base === 0) {
      const n = this.#count;
      const scoreStatus = metricTypes.map((type) => {
        const column = this.#types.get(type)?.open ?? [];
        const chars = new Array<string>(n);
        for (let row = 0; row < n; row += 1) chars[row] = column[row] ?? '-';
        return chars.join('');
      });
      this.#table = {
        kind: 'plain',
        id: this.#openId,
        status: this.#openStatus.join(''),
        scoreStatus,
        values: keys.map((key) => this.valueColumn(key)),
      };
      return this.#table;
    }
    const text = this.#tableText();
    this.#table = {
      ...text,
      scoreStatus: metricTypes.map((type) => this.#types.get(type)?.text ?? this.#filled('chars', '-')),
      values: keys.map((key) => this.#outputs.get(key)?.text ?? this.#filled('array', 'null')),
    };
    return this.#table;
  }

  /** Adds a row for a trial record and returns its index. */
  addTrial(trial: Pick<Trial, 'task_id' | 'id' | 'status' | 'error'>): number {
    const row = this.#addRow(trial.task_id, trial.id, STATUS_CHAR[trial.status] ?? '?', true);
    if (trial.status in this.trialStatus) this.trialStatus[trial.status] += 1;
    if (trial.error) {
      let type = this.#errorTypeIndex.get(trial.error.type);
      if (type === undefined) {
        type = this.errorTypes.length;
        this.errorTypes.push(trial.error.type);
        this.#errorTypeIndex.set(trial.error.type, type);
      }
      this.errorRows.push(row);
      this.errorOfRow.push(type);
    }
    return row;
  }

  /**
   * Adds a score to `row`, or (without a row) to the open row its task and trial id match, and returns
   * the row it went to.
   */
  addScore(score: RowScore & Pick<ScoreRecord, 'task_id' | 'trial_id'>, row?: number): number {
    const type = this.#typeOf(score.metric_type);
    const column = type.open;
    const target = row ?? this.#rowOf(score.task_id, score.trial_id, column);
    if (target < this.#base) throw new Error(`ReportRows.addScore: row ${target} is sealed`);
    const at = target - this.#base;
    const counted = this.scoreStatus as Record<string, number>;
    if (counted[score.status] !== undefined) (counted[score.status] as number) += 1;
    const first = column[at] === undefined;
    if (first) column[at] = STATUS_CHAR[score.status] ?? '-';
    const outputs = score.outputs;
    for (let i = 0; i < outputs.length; i += 1) {
      const out = outputs[i] as RowScore['outputs'][number];
      let values = type.outputs.get(out.name);
      if (values === undefined) {
        const key = `${score.metric_type}.${out.name}`;
        this.seenOutputs.set(key, [score.metric_type, out.name]);
        values = this.#outputs.get(key);
        if (values === undefined) this.#outputs.set(key, (values = { open: [], text: null }));
        type.outputs.set(out.name, values);
      }
      // the first output of that name in the row's first score of the type
      if (first && values.open[at] === undefined) values.open[at] = columnValue(out.value);
    }
    return target;
  }

  /**
   * Adds one of a trial's input diagnostics to `row`, or (without a row) to the first open row of its
   * task and trial id (a row of its own when there is none), and returns the row; a diagnostic of no
   * trial is only counted (null). The table keeps the
   * count and the kind and place of the first two.
   */
  addDiagnostic(d: TrialDiagnosticRow, row?: number): number | null {
    this.diagnosticsByCode.set(d.code, (this.diagnosticsByCode.get(d.code) ?? 0) + 1);
    // a problem of the input as a whole is counted, with no row
    if (d.trial_id === null || d.task_id === null) return null;
    const target = row ?? this.#firstRowOf(d.task_id, d.trial_id);
    let entry = this.#diagnostics.get(target);
    if (entry === undefined) this.#diagnostics.set(target, (entry = { count: 0, shown: [] }));
    entry.count += 1;
    if (entry.shown.length < 2) entry.shown.push(`${d.code} at ${cutText(trialDiagnosticPlace(d), 160)}`);
    return target;
  }

  /** The rows with diagnostics (ascending), their counts, and the table's text of each. */
  diagnosticColumns(): { rows: number[]; count: number[]; text: string[] } {
    const rows = [...this.#diagnostics.keys()].sort((a, b) => a - b);
    const count: number[] = [];
    const text: string[] = [];
    for (const row of rows) {
      const { count: n, shown } = this.#diagnostics.get(row) as { count: number; shown: string[] };
      count.push(n);
      text.push(shown.join('; ') + (n > shown.length ? `; +${n - shown.length} more` : ''));
    }
    return { rows, count, text };
  }

  /**
   * Seals every open row up to `row` (rows are sealed in order): they are written as text and take no
   * more scores. With `keep`, the values of `row` stay readable (`valueAt`) until `release(row)`.
   */
  seal(row: number, keep: boolean): void {
    if (this.#table !== null) throw new Error('ReportRows.seal: the table is done');
    const end = Math.min(row + 1, this.#count);
    if (end <= this.#base) return;
    this.#idText ??= new JsonTextColumn('array');
    this.#statusText ??= new JsonTextColumn('chars');
    for (const column of this.#types.values()) column.text ??= this.#filled('chars', '-');
    for (const column of this.#outputs.values()) column.text ??= this.#filled('array', 'null');
    for (let r = this.#base; r < end; r += 1) {
      const at = r - this.#base;
      this.#idText.push(embedJson(this.#openId[at] as string));
      this.#statusText.push(this.#openStatus[at] as string);
      for (const column of this.#types.values()) (column.text as JsonTextColumn).push(column.open[at] ?? '-');
      for (const column of this.#outputs.values()) {
        const value = column.open[at];
        (column.text as JsonTextColumn).push(value === undefined ? 'null' : embedJson(value));
      }
    }
    if (keep) {
      const values = new Map<string, JsonValue>();
      for (const [key, column] of this.#outputs) {
        const value = column.open[row - this.#base];
        if (value !== undefined) values.set(key, value);
      }
      this.#kept.set(row, values);
    }
    const n = end - this.#base;
    // a stream seals its one open row: the open arrays are emptied, not spliced
    const cut = <T>(open: T[]): void => {
      if (open.length <= n) open.length = 0;
      else open.splice(0, n);
    };
    for (const open of [this.#openTask, this.#openId, this.#openStatus, this.#fromTrial]) cut<unknown>(open);
    for (const column of this.#types.values()) cut(column.open);
    for (const column of this.#outputs.values()) cut(column.open);
    this.#base = end;
    this.#rowsByKey = null;
  }

  /** Forgets the kept values of a sealed row (its detail was dropped). */
  release(row: number): void {
    this.#kept.delete(row);
  }

  /** The id and status text with every open row sealed (their values kept). */
  #tableText(): { kind: 'text'; id: JsonTextColumn; status: JsonTextColumn } {
    for (let row = this.#base; row < this.#count; row += 1) this.seal(row, true);
    return { kind: 'text', id: this.#idText as JsonTextColumn, status: this.#statusText as JsonTextColumn };
  }

  /** A new column holding `text` once per sealed row. */
  #filled(kind: 'array' | 'chars', text: string): JsonTextColumn {
    const column = new JsonTextColumn(kind);
    column.repeat(text, this.#base);
    return column;
  }

  #firstRowOf(taskId: string, trialId: string): number {
    const found = this.#byKey().get(taskId)?.get(trialId);
    if (found === undefined) return this.#addRow(taskId, trialId, '?', false);
    return typeof found === 'number' ? found : (found[0] as number);
  }

  #typeOf(name: string): TypeColumn {
    let type = this.#types.get(name);
    if (type === undefined) this.#types.set(name, (type = { open: [], text: null, outputs: new Map() }));
    return type;
  }

  #addRow(taskId: string, trialId: string, status: string, fromTrial: boolean): number {
    const row = this.#count;
    const task = this.addTask(taskId);
    const n = this.#runsLength;
    if (n > 0 && this.#taskRuns[n - 2] === task)
      this.#taskRuns[n - 1] = (this.#taskRuns[n - 1] as number) + 1;
    else {
      // grown by half: trials of many tasks interleave, so a run is often one row and this grows with rows
      if (n + 2 > this.#taskRuns.length) this.#taskRuns = grownTypedArray(this.#taskRuns, n + (n >> 1));
      this.#taskRuns[n] = task;
      this.#taskRuns[n + 1] = 1;
      this.#runsLength = n + 2;
    }
    this.#openTask.push(task);
    this.#openId.push(trialId);
    this.#openStatus.push(status);
    this.#fromTrial.push(fromTrial);
    this.#count = row + 1;
    if (this.#rowsByKey !== null) this.#index(this.#rowsByKey, row);
    return row;
  }

  #byKey(): Map<string, Map<string, number | number[]>> {
    if (this.#rowsByKey === null) {
      const byKey = new Map<string, Map<string, number | number[]>>();
      for (let row = this.#base; row < this.#count; row += 1) this.#index(byKey, row);
      this.#rowsByKey = byKey;
    }
    return this.#rowsByKey;
  }

  #index(byKey: Map<string, Map<string, number | number[]>>, row: number): void {
    const taskId = this.taskIds[this.#openTask[row - this.#base] as number] as string;
    const trialId = this.#openId[row - this.#base] as string;
    let byTrial = byKey.get(taskId);
    if (byTrial === undefined) byKey.set(taskId, (byTrial = new Map()));
    const rows = byTrial.get(trialId);
    if (rows === undefined) byTrial.set(trialId, row);
    else if (typeof rows === 'number') byTrial.set(trialId, [rows, row]);
    else rows.push(row);
  }

  #rowOf(taskId: string, trialId: string, column: readonly (string | undefined)[]): number {
    const found = this.#byKey().get(taskId)?.get(trialId);
    const base = this.#base;
    if (typeof found === 'number') {
      if (column[found - base] === undefined || this.#fromTrial[found - base] === true) return found;
    } else if (found !== undefined) {
      for (const r of found) if (column[r - base] === undefined) return r;
      const last = found[found.length - 1] as number;
      if (this.#fromTrial[last - base] === true) return last;
    }
    return this.#addRow(taskId, trialId, '?', false);
  }
}
