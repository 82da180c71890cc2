import type { TaskValueRecord } from '../model/summary.js';

const NUMBER = 0;
const FLOAT = 1;
const TRUE = 2;
const FALSE = 3;
const LABEL = 4;
const MISSING = 5;

/**
 * The task value records of one `task_metric_values[task][key]` list, stored column-wise (no object
 * per record): `codes[i] = trialIndex * 8 + kind` (trial ids shared with the task's trial list),
 * `values[i]` the number (or the label's index in `labels`). `records()` builds the SDK's
 * `{trial_id, value_type, value}` objects on demand.
 *
 * @example
 * const column = new TaskValueColumn(['t1']);
 * column.push(0, TaskValueColumn.NUMBER, 0.5);
 * column.records(); // [{ trial_id: 't1', value_type: 'number', value: 0.5 }]
 */
export class TaskValueColumn {
  /** Kinds (the low 3 bits of a code). A number written (or to be written) as an int when integral. */
  static readonly NUMBER = 0;
  /** A number whose JSON literal was a float (`1.0`): an integral value prints with `.0`. */
  static readonly FLOAT = 1;
  static readonly TRUE = 2;
  static readonly FALSE = 3;
  static readonly LABEL = 4;
  static readonly MISSING = 5;

  /**
   * `trialIds` is the task's list of distinct trial ids; records refer to it by index. The record
   * arrays may be given filled (taken as they are, e.g. sized exactly), else they start empty; a
   * column given typed arrays is complete (`push` throws).
   */
  constructor(
    readonly trialIds: readonly string[],
    readonly codes: number[] | Int32Array = [],
    readonly values: number[] | Float64Array | Int32Array = [],
    readonly labels: string[] = [],
  ) {}

  get length(): number {
    return this.codes.length;
  }

  /** Appends one record; `value` is the number (kinds Number/Float), else ignored. */
  push(trialIndex: number, kind: number, value: number): void {
    const codes = this.codes;
    const values = this.values;
    if (!Array.isArray(codes) || !Array.isArray(values)) throw complete();
    codes.push(trialIndex * 8 + kind);
    values.push(value);
  }

  /** Appends a label record. */
  pushLabel(trialIndex: number, label: string): void {
    const codes = this.codes;
    const values = this.values;
    if (!Array.isArray(codes) || !Array.isArray(values)) throw complete();
    codes.push(trialIndex * 8 + LABEL);
    values.push(this.labels.length);
    this.labels.push(label);
  }

  /** A copy of the records so far, referring to `trialIds` (a copy of this column's trial id list). */
  copyWith(trialIds: readonly string[]): TaskValueColumn {
    return new TaskValueColumn(
      trialIds,
      Array.from(this.codes),
      Array.from(this.values),
      this.labels.slice(),
    );
  }

  /** The kind of record `i`. */
  kind(i: number): number {
    return (this.codes[i] as number) % 8;
  }

  /** The trial id of record `i`. */
  trialId(i: number): string {
    return this.trialIds[Math.floor((this.codes[i] as number) / 8)] as string;
  }

  /** The value of record `i` as a `TaskValueRecord` holds it. */
  value(i: number): TaskValueRecord['value'] {
    switch (this.kind(i)) {
      case NUMBER:
      case FLOAT:
        return this.values[i] as number;
      case TRUE:
        return true;
      case FALSE:
        return false;
      case LABEL:
        return this.labels[this.values[i] as number] as string;
      default:
        return null;
    }
  }

  /** The records as the summary holds them (fresh objects). */
  records(): TaskValueRecord[] {
    const n = this.codes.length;
    const out = new Array<TaskValueRecord>(n);
    for (let i = 0; i < n; i++) {
      const kind = this.kind(i);
      out[i] = {
        trial_id: this.trialId(i),
        value_type: kind === LABEL ? 'label' : kind === MISSING ? 'missing' : 'number',
        value: this.value(i),
      };
    }
    return out;
  }
}

function complete(): Error {
  return new Error('TaskValueColumn: a column of typed arrays is complete');
}
