import type { JsonValue } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import { trialDiagnosticPlace } from '../model/trial-diagnostic-place.js';
import type { Trial } from '../model/trial.js';
import { boxNonFinite } from './box-non-finite.js';
import { cutText } from './cut-text.js';
import { grownTypedArray } from '../util/grown-typed-array.js';

const STATUS_CHAR: Record<string, string> = { completed: 'c', partial: 'p', failed: 'f' };

/** What a row keeps of a score: its metric type, status and output values. */
export type RowScore = Pick<ScoreRecord, 'metric_type' | 'status' | 'outputs'>;

/** One metric type's columns: score status per row (a char code, 0: none), and its outputs' columns. */
interface TypeColumns {
  status: Uint8Array;
  outputs: Map<string, OutputColumn>;
}

/** Kinds of a value column's cells. */
const ABSENT = 0;
const NUMBER = 1;
const OTHER = 2;

/**
 * One output's values by row, off the JavaScript heap where they are finite numbers (most are):
 * `kind[row]` says whether the row has a value and where it is, `numbers[row]` holds a number, and
 * `others[row]` any other value (made only when one comes).
 */
interface OutputColumn {
  kind: Uint8Array;
  numbers: Float64Array;
  others: JsonValue[] | null;
}

const CHAR_DASH = 0x2d;
const INITIAL_ROWS = 1024;

/** `array` with room for at least `length` elements (itself when it has it). */
function atLeast<T extends Uint8Array | Int32Array | Float64Array>(array: T, length: number): T {
  if (array.length >= length) return array;
  return grownTypedArray(array, Math.max(length, array.length * 2));
}

/** A metric output value as the columnar embed stores it (see `ReportData.values`). */
function columnValue(value: JsonValue | undefined): JsonValue {
  if (value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : boxNonFinite(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return cutText(value, 200);
  return { $o: value === null ? 'null' : Array.isArray(value) ? 'list' : 'object' };
}

/**
 * The report's per-trial table, filled one trial at a time and kept compact: per row a task index, the
 * trial id, one status char, the error type and the input diagnostics (sparse), and per metric type the status of the row's first
 * score of that type and its output values (strings cut to 200 chars). Nothing else of a trial stays.
 * A score is matched to a row by (task, trial id): the i-th score of a metric type goes to the i-th
 * trial with that pair, scores beyond the trial records stay on the last record, and scores of trials
 * without a record get a row of their own (status `?`).
 *
 * @example
 * const rows = new ReportRows();
 * const row = rows.addTrial(trial);
 * for (const score of scores) rows.addScore(score, row);
 */
export class ReportRows {
  readonly taskIds: string[] = [];
  readonly #taskIndex = new Map<string, number>();
  /** Per row: its task's index, status char code, and 1 when it came from a trial record (0: scores only). */
  #rowTask = new Int32Array(INITIAL_ROWS);
  #rowTaskList: number[] | null = null;
  readonly rowId: string[] = [];
  #status = new Uint8Array(INITIAL_ROWS);
  #fromTrial = new Uint8Array(INITIAL_ROWS);
  readonly errorRows: number[] = [];
  readonly errorOfRow: number[] = [];
  readonly errorTypes: string[] = [];
  readonly #errorTypeIndex = new Map<string, number>();
  /** Per `type.output`, per row: the value in the row's first score of that type. */
  readonly #valuesByOutput = new Map<string, OutputColumn>();
  /** `type.output` pairs seen in scores, in arrival order. */
  readonly seenOutputs = new Map<string, [string, string]>();
  /** Per row with input diagnostics: how many, and what the table shows of them (bounded). */
  readonly #diagnostics = new Map<number, { count: number; shown: string[] }>();
  /** Input diagnostics per code, all rows together. */
  readonly diagnosticsByCode = new Map<string, number>();
  readonly trialStatus = { completed: 0, partial: 0, failed: 0 };
  readonly scoreStatus = { completed: 0, partial: 0, failed: 0 };
  readonly #types = new Map<string, TypeColumns>();
  /**
   * Rows by task id, then trial id (ids need not be unique: a list per pair), built at the first
   * lookup by key: a stream names each score's row, so it never holds an entry per trial here.
   */
  #rowsByKey: Map<string, Map<string, number | number[]>> | null = null;

  /** Number of rows. */
  get count(): number {
    return this.rowId.length;
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

  /** The task index of every row. */
  get rowTask(): readonly number[] {
    this.#rowTaskList ??= Array.from(this.#rowTask.subarray(0, this.count));
    return this.#rowTaskList;
  }

  /** The metric types of the scores, in arrival order. */
  metricTypes(): string[] {
    return [...this.#types.keys()];
  }

  /**
   * The status char of each row's first score of `type` (`c`, `p`, `f`, or `-` for none), one per row.
   */
  statusColumnText(type: string): string {
    const column = this.#types.get(type)?.status;
    const chars = new Uint8Array(this.count).fill(CHAR_DASH);
    if (column !== undefined) {
      for (let row = 0; row < chars.length && row < column.length; row += 1) {
        const c = column[row] as number;
        if (c !== 0) chars[row] = c;
      }
    }
    return Buffer.from(chars.buffer, 0, chars.length).toString('latin1');
  }

  /** The value of output `key` (`type.output`) in `row`, or undefined when the row has none. */
  valueAt(key: string, row: number): JsonValue | undefined {
    const column = this.#valuesByOutput.get(key);
    if (column === undefined || row >= column.kind.length) return undefined;
    const kind = column.kind[row];
    if (kind === NUMBER) return column.numbers[row] as number;
    return kind === OTHER ? (column.others?.[row] as JsonValue) : undefined;
  }

  /** The values of output `key` (`type.output`) for every row, absent ones as null. */
  valueColumn(key: string): JsonValue[] {
    const out = new Array<JsonValue>(this.count);
    for (let row = 0; row < out.length; row += 1) out[row] = this.valueAt(key, row) ?? null;
    return out;
  }

  /** Status chars of all rows (`c`, `p`, `f`, `?`). */
  statusText(): string {
    return Buffer.from(this.#status.buffer, 0, this.count).toString('latin1');
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
   * Adds a score to `row`, or (without a row) to the row its task and trial id match, and returns the
   * row it went to.
   */
  addScore(score: RowScore & Pick<ScoreRecord, 'task_id' | 'trial_id'>, row?: number): number {
    const type = this.#typeOf(score.metric_type);
    const target = row ?? this.#rowOf(score.task_id, score.trial_id, type.status);
    const counted = this.scoreStatus as Record<string, number>;
    if (counted[score.status] !== undefined) (counted[score.status] as number) += 1;
    const status = (type.status = atLeast(type.status, this.#status.length));
    const first = status[target] === 0;
    if (first) status[target] = (STATUS_CHAR[score.status] ?? '-').charCodeAt(0);
    const outputs = score.outputs;
    for (let i = 0; i < outputs.length; i += 1) {
      const out = outputs[i] as RowScore['outputs'][number];
      let values = type.outputs.get(out.name);
      if (values === undefined) {
        const key = `${score.metric_type}.${out.name}`;
        this.seenOutputs.set(key, [score.metric_type, out.name]);
        values = this.#valuesByOutput.get(key);
        if (values === undefined) {
          values = { kind: new Uint8Array(0), numbers: new Float64Array(0), others: null };
          this.#valuesByOutput.set(key, values);
        }
        type.outputs.set(out.name, values);
      }
      // the first output of that name in the row's first score of the type
      if (!first) continue;
      const kind = (values.kind = atLeast(values.kind, this.#status.length));
      if (kind[target] !== ABSENT) continue;
      const value = columnValue(out.value);
      if (typeof value === 'number') {
        values.numbers = atLeast(values.numbers, this.#status.length);
        values.numbers[target] = value;
        kind[target] = NUMBER;
      } else {
        (values.others ??= [])[target] = value;
        kind[target] = OTHER;
      }
    }
    return target;
  }

  /**
   * Adds one of a trial's input diagnostics to `row`, or (without a row) to the first row of its task
   * and trial id (a row of its own when there is none), and returns the row. The table keeps the
   * count and the kind and place of the first two.
   */
  addDiagnostic(d: TrialDiagnosticRow, row?: number): number {
    const target = row ?? this.#firstRowOf(d.task_id, d.trial_id);
    this.diagnosticsByCode.set(d.code, (this.diagnosticsByCode.get(d.code) ?? 0) + 1);
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

  #firstRowOf(taskId: string, trialId: string): number {
    const found = this.#byKey().get(taskId)?.get(trialId);
    if (found === undefined) return this.#addRow(taskId, trialId, '?', false);
    return typeof found === 'number' ? found : (found[0] as number);
  }

  #typeOf(name: string): TypeColumns {
    let type = this.#types.get(name);
    if (type === undefined) this.#types.set(name, (type = { status: new Uint8Array(0), outputs: new Map() }));
    return type;
  }

  #addRow(taskId: string, trialId: string, status: string, fromTrial: boolean): number {
    const row = this.rowId.length;
    if (row === this.#status.length) {
      this.#rowTask = grownTypedArray(this.#rowTask, row * 2);
      this.#status = grownTypedArray(this.#status, row * 2);
      this.#fromTrial = grownTypedArray(this.#fromTrial, row * 2);
    }
    this.#rowTask[row] = this.addTask(taskId);
    this.#rowTaskList = null;
    this.rowId.push(trialId);
    this.#status[row] = status.charCodeAt(0);
    this.#fromTrial[row] = fromTrial ? 1 : 0;
    if (this.#rowsByKey !== null) this.#index(this.#rowsByKey, row);
    return row;
  }

  #byKey(): Map<string, Map<string, number | number[]>> {
    if (this.#rowsByKey === null) {
      const byKey = new Map<string, Map<string, number | number[]>>();
      for (let row = 0; row < this.rowId.length; row += 1) this.#index(byKey, row);
      this.#rowsByKey = byKey;
    }
    return this.#rowsByKey;
  }

  #index(byKey: Map<string, Map<string, number | number[]>>, row: number): void {
    const taskId = this.taskIds[this.#rowTask[row] as number] as string;
    const trialId = this.rowId[row] as string;
    let byTrial = byKey.get(taskId);
    if (byTrial === undefined) byKey.set(taskId, (byTrial = new Map()));
    const rows = byTrial.get(trialId);
    if (rows === undefined) byTrial.set(trialId, row);
    else if (typeof rows === 'number') byTrial.set(trialId, [rows, row]);
    else rows.push(row);
  }

  /** The row a score of (task, trial) goes to, given its type's status column (0: no score yet). */
  #rowOf(taskId: string, trialId: string, column: Uint8Array): number {
    const found = this.#byKey().get(taskId)?.get(trialId);
    if (typeof found === 'number') {
      if (!column[found] || this.#fromTrial[found] === 1) return found;
    } else if (found !== undefined) {
      for (const r of found) if (!column[r]) return r;
      const last = found[found.length - 1] as number;
      if (this.#fromTrial[last] === 1) return last;
    }
    return this.#addRow(taskId, trialId, '?', false);
  }
}
