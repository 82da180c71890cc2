import type { TaskValueRecord } from '../model/summary.js';
import { TaskValueColumn } from './task-value-column.js';
import { setOwn } from '../util/set-own.js';

type TaskMetricValues = Record<string, Record<string, TaskValueRecord[]>>;

/** One task's lists: keys in summary order, with their columns. */
type TaskColumns = readonly (readonly [string, TaskValueColumn])[];

/**
 * The property of a column-backed `task_metric_values` that holds its `ColumnarTaskValues`: a
 * symbol, not enumerable, so keys, JSON, spreading and `structuredClone` see the plain shape.
 */
const TABLE = Symbol('ColumnarTaskValues');

/**
 * The columns (`TaskValueColumn`) behind a `Summary.task_metric_values` made by `create`: that object
 * has the usual shape, but each task's `{key: records}` entry is built on first access (an accessor
 * that replaces itself with a plain data property), so a summary that is only written never holds one
 * object per record. Writers get the columns from the object itself (`of`) and read them directly
 * while an entry is untouched.
 *
 * @example
 * const values = ColumnarTaskValues.create([['task-1', [['m.score', column]]]]);
 * values['task-1']['m.score'][0].value; // built on first access
 * ColumnarTaskValues.of(values)?.columns('task-1'); // null once the entry was read
 */
export class ColumnarTaskValues {
  /** Each task's columns, and the accessor installed for it (identity tells whether it is untouched). */
  private readonly tasks = new Map<string, { columns: TaskColumns; get: () => unknown }>();

  private constructor(private readonly values: TaskMetricValues) {}

  /** The lazy `task_metric_values` of the given tasks (in this order) and their keyed columns. */
  static create(tasks: Iterable<readonly [string, TaskColumns]>): TaskMetricValues {
    const values: TaskMetricValues = {};
    const table = new ColumnarTaskValues(values);
    Object.defineProperty(values, TABLE, { value: table });
    for (const [taskId, columns] of tasks) {
      let built: Record<string, TaskValueRecord[]> | null = null;
      const get = (): Record<string, TaskValueRecord[]> => {
        if (built !== null) return built; // only when the object was frozen before the first read
        const byKey: Record<string, TaskValueRecord[]> = {};
        for (const [key, column] of columns) setOwn(byKey, key, column.records());
        built = byKey;
        define(values, taskId, byKey);
        return byKey;
      };
      table.tasks.set(taskId, { columns, get });
      Object.defineProperty(values, taskId, {
        get,
        set: (value: Record<string, TaskValueRecord[]>) => define(values, taskId, value),
        enumerable: true,
        configurable: true,
      });
    }
    return values;
  }

  /** The columns behind `taskMetricValues` when `create` made it, else null. */
  static of(taskMetricValues: object): ColumnarTaskValues | null {
    return (taskMetricValues as { [TABLE]?: ColumnarTaskValues })[TABLE] ?? null;
  }

  /**
   * The columns of `taskMetricValues[taskId]` while that entry was never read nor replaced (so the
   * columns are exactly its records), else null.
   */
  columns(taskId: string): TaskColumns | null {
    const task = this.tasks.get(taskId);
    if (task === undefined) return null;
    return Object.getOwnPropertyDescriptor(this.values, taskId)?.get === task.get ? task.columns : null;
  }

  /**
   * The float-literal kind of integral numeric records (`TaskValueColumn.FLOAT`), read or not; undefined
   * for other records, unknown lists, or a list whose length changed since it was built. A summary
   * writer given this very function may take the columns' kinds directly.
   */
  readonly isFloat = (taskId: string, key: string, index: number): boolean | undefined => {
    const column = this.tasks.get(taskId)?.columns.find(([k]) => k === key)?.[1];
    if (column === undefined || index >= column.length) return undefined;
    if (this.values[taskId]?.[key]?.length !== column.length) return undefined;
    const kind = column.kind(index);
    if (kind !== TaskValueColumn.NUMBER && kind !== TaskValueColumn.FLOAT) return undefined;
    if (!Number.isInteger(column.values[index])) return undefined;
    return kind === TaskValueColumn.FLOAT;
  };
}

/** A plain data property (left as is when the object was frozen or sealed). */
function define(target: object, key: string, value: unknown): void {
  Reflect.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
