import type { JsonValue } from '../model/json-value.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { TrialDiagnosticRow } from '../model/trial-diagnostic-row.js';
import { trialDiagnosticPlace } from '../model/trial-diagnostic-place.js';
import type { Trial } from '../model/trial.js';
import { boxNonFinite } from './box-non-finite.js';
import { cutText } from './cut-text.js';

const STATUS_CHAR: Record<string, string> = { completed: 'c', partial: 'p', failed: 'f' };

/** What a row keeps of a score: its metric type, status and output values. */
export type RowScore = Pick<ScoreRecord, 'metric_type' | 'status' | 'outputs'>;

/** One metric type's columns: score status per row, and the value column of each output name. */
interface TypeColumns {
  status: string[];
  outputs: Map<string, JsonValue[]>;
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
  readonly rowTask: number[] = [];
  readonly rowId: string[] = [];
  readonly #status: string[] = [];
  /** Whether the row came from a trial record (false: scores only). */
  readonly #fromTrial: boolean[] = [];
  readonly errorRows: number[] = [];
  readonly errorOfRow: number[] = [];
  readonly errorTypes: string[] = [];
  readonly #errorTypeIndex = new Map<string, number>();
  /** Per metric type, per row: status char of the row's first score of that type (holes: none). */
  readonly statusByType = new Map<string, string[]>();
  /** Per `type.output`, per row: the value in the row's first score of that type (holes: absent). */
  readonly valuesByOutput = new Map<string, JsonValue[]>();
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

  /**
   * The values of output `key` (`type.output`) for every row, absent ones as null: the column itself,
   * filled in place (the table is done when it is read), or a new column of nulls for an output no
   * score carried.
   */
  valueColumn(key: string): JsonValue[] {
    const column = this.valuesByOutput.get(key);
    const rowCount = this.rowId.length;
    if (column === undefined) return new Array<JsonValue>(rowCount).fill(null);
    for (let row = 0; row < rowCount; row += 1) column[row] ??= null;
    return column;
  }

  /** Status chars of all rows (`c`, `p`, `f`, `?`). */
  statusText(): string {
    return this.#status.join('');
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
    const column = type.status;
    const target = row ?? this.#rowOf(score.task_id, score.trial_id, column);
    const counted = this.scoreStatus as Record<string, number>;
    if (counted[score.status] !== undefined) (counted[score.status] as number) += 1;
    const first = column[target] === undefined;
    if (first) column[target] = STATUS_CHAR[score.status] ?? '-';
    const outputs = score.outputs;
    for (let i = 0; i < outputs.length; i += 1) {
      const out = outputs[i] as RowScore['outputs'][number];
      let values = type.outputs.get(out.name);
      if (values === undefined) {
        const key = `${score.metric_type}.${out.name}`;
        this.seenOutputs.set(key, [score.metric_type, out.name]);
        values = this.valuesByOutput.get(key);
        if (values === undefined) this.valuesByOutput.set(key, (values = []));
        type.outputs.set(out.name, values);
      }
      // the first output of that name in the row's first score of the type
      if (first && values[target] === undefined) values[target] = columnValue(out.value);
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
    if (type === undefined) {
      const status: string[] = [];
      this.statusByType.set(name, status);
      this.#types.set(name, (type = { status, outputs: new Map() }));
    }
    return type;
  }

  #addRow(taskId: string, trialId: string, status: string, fromTrial: boolean): number {
    const row = this.rowId.length;
    this.rowTask.push(this.addTask(taskId));
    this.rowId.push(trialId);
    this.#status.push(status);
    this.#fromTrial.push(fromTrial);
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
    const taskId = this.taskIds[this.rowTask[row] as number] as string;
    const trialId = this.rowId[row] as string;
    let byTrial = byKey.get(taskId);
    if (byTrial === undefined) byKey.set(taskId, (byTrial = new Map()));
    const rows = byTrial.get(trialId);
    if (rows === undefined) byTrial.set(trialId, row);
    else if (typeof rows === 'number') byTrial.set(trialId, [rows, row]);
    else rows.push(row);
  }

  #rowOf(taskId: string, trialId: string, column: readonly (string | undefined)[]): number {
    const found = this.#byKey().get(taskId)?.get(trialId);
    if (typeof found === 'number') {
      if (column[found] === undefined || this.#fromTrial[found] === true) return found;
    } else if (found !== undefined) {
      for (const r of found) if (column[r] === undefined) return r;
      const last = found[found.length - 1] as number;
      if (this.#fromTrial[last] === true) return last;
    }
    return this.#addRow(taskId, trialId, '?', false);
  }
}
