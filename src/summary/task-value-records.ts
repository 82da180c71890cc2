import { grownTypedArray } from '../util/grown-typed-array.js';
import { TaskValueColumn } from './task-value-column.js';

const LABEL = TaskValueColumn.LABEL;

/**
 * Records kept in plain arrays before typed ones: a run has one list per task and key, mostly short
 * (a task's trials), and each typed array is an allocation of its own outside the heap plus two
 * objects on it, which for a short list cost more time and memory than its records.
 */
const SHORT = 64;

/** Whether an Int32Array keeps `v` as it is (not -0, NaN, a fraction or out of range). */
function isInt32(v: number): boolean {
  return (v | 0) === v && !Object.is(v, -0);
}

/**
 * The task value records of one `task_metric_values[task][key]` list while a summary is being built:
 * the codes and numbers of `TaskValueColumn` (`code = trialIndex * 8 + kind`), in plain arrays for the
 * first {@link SHORT} records, then in typed arrays outside the JavaScript heap, growing by half their
 * size (a run holds one such list per task and key, so the unused tail is most of what they cost
 * beyond the records): 8 bytes a record while every number is an int32, 12 from the first that is
 * not. `column()` gives the `TaskValueColumn` the summary holds, with arrays sized exactly.
 *
 * @example
 * const records = new TaskValueRecords();
 * records.push(0, TaskValueColumn.NUMBER, 0.5);
 * records.column(['t1'], true).records(); // [{ trial_id: 't1', value_type: 'number', value: 0.5 }]
 */
export class TaskValueRecords {
  #codes: number[] | Int32Array = [];
  /** Typed: Int32 while every value is an int32 (counts, booleans, labels), else Float64. */
  #values: number[] | Int32Array | Float64Array = [];
  #labels: string[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Appends one record; `value` is the number (kinds Number/Float), else ignored. */
  push(trialIndex: number, kind: number, value: number): void {
    const at = this.#length;
    if (Array.isArray(this.#codes)) {
      if (at < SHORT) {
        this.#codes.push(trialIndex * 8 + kind);
        (this.#values as number[]).push(value);
        this.#length = at + 1;
        return;
      }
      this.#typed(at + (at >> 1));
    }
    if (at === this.#codes.length) {
      const length = at + (at >> 1);
      this.#codes = grownTypedArray(this.#codes as Int32Array, length);
      this.#values = grownTypedArray(this.#values as Int32Array | Float64Array, length);
    }
    this.#codes[at] = trialIndex * 8 + kind;
    if (this.#values instanceof Int32Array && !isInt32(value)) {
      const wide = new Float64Array(this.#values.length);
      wide.set(this.#values);
      this.#values = wide;
    }
    this.#values[at] = value;
    this.#length = at + 1;
  }

  /** The plain arrays' records moved to typed arrays of `capacity`. */
  #typed(capacity: number): void {
    const values = this.#values as number[];
    const int32 = values.every(isInt32);
    const codes = new Int32Array(capacity);
    codes.set(this.#codes);
    this.#codes = codes;
    this.#values = int32 ? new Int32Array(capacity) : new Float64Array(capacity);
    this.#values.set(values);
  }

  /** Appends a label record. */
  pushLabel(trialIndex: number, label: string): void {
    this.push(trialIndex, LABEL, this.#labels.length);
    this.#labels.push(label);
  }

  /** Rewrites each record's trial position through `remap` (old position → new, `TrialIdIndex.compact`). */
  remapTrials(remap: Int32Array): void {
    const codes = this.#codes;
    for (let i = 0; i < this.#length; i++) {
      const code = codes[i] as number;
      codes[i] = (remap[code >> 3] as number) * 8 + (code & 7);
    }
  }

  /** The kind of record `i`. */
  kind(i: number): number {
    return (this.#codes[i] as number) & 7;
  }

  /** The number of record `i` (kinds Number/Float; a label's index for Label). */
  value(i: number): number {
    return this.#values[i] as number;
  }

  /**
   * The records as a `TaskValueColumn` over the task's `trialIds`, its arrays sized exactly (copies,
   * unless these arrays are full). With `copy`, later records stay here; without, the records are
   * emptied.
   */
  column(trialIds: readonly string[], copy: boolean): TaskValueColumn {
    const n = this.#length;
    // handed over as they are when emptied and full (plain arrays always are)
    const whole = !copy && n === this.#codes.length;
    const column = new TaskValueColumn(
      trialIds,
      whole ? this.#codes : this.#codes.slice(0, n),
      whole ? this.#values : this.#values.slice(0, n),
      copy ? this.#labels.slice() : this.#labels,
    );
    if (!copy) {
      this.#codes = [];
      this.#values = [];
      this.#labels = [];
      this.#length = 0;
    }
    return column;
  }
}
