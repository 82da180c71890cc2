import type { TaskValueRecord } from '../model/summary.js';
import { TaskValueColumn } from './task-value-column.js';
import { setOwn } from '../util/set-own.js';

type TaskMetricValues = Record<string, Record<string, TaskValueRecord[]>>;

/** One task's lists: keys in summary order, with their columns. */
type TaskColumns = readonly (readonly [string, TaskValueColumn])[];

interface Entry {
  readonly columns: TaskColumns;
  /** The lazy accessor installed for the task (identity tells whether it is still untouched). */
  readonly get: () => Record<string, TaskValueRecord[]>;
}

const registry = new WeakMap<object, Map<string, Entry>>();
const floatLookups = new WeakSet<object>();

/**
 * `Summary.task_metric_values` backed by columns (`TaskValueColumn`): the object has the usual shape,
 * but each task's `{key: records}` entry is built on first access (an accessor that replaces itself
 * with a plain data property), so a summary that is only written never holds one object per record.
 * Writers that know the columns read them directly while an entry is untouched.
 *
 * @example
 * const values = columnarTaskValues.create([['task-1', [['m.score', column]]]]);
 * values['task-1']['m.score'][0].value; // built on first access
 * columnarTaskValues.columns(values, 'task-1'); // null once the entry was read
 */
export const columnarTaskValues = {
  /** The lazy `task_metric_values` of the given tasks (in this order) and their keyed columns. */
  create(tasks: Iterable<readonly [string, TaskColumns]>): TaskMetricValues {
    const target: TaskMetricValues = {};
    const entries = new Map<string, Entry>();
    for (const [taskId, columns] of tasks) {
      let built: Record<string, TaskValueRecord[]> | null = null;
      const get = (): Record<string, TaskValueRecord[]> => {
        if (built !== null) return built; // only when the object was frozen before the first read
        const byKey: Record<string, TaskValueRecord[]> = {};
        for (const [key, column] of columns) setOwn(byKey, key, column.records());
        built = byKey;
        define(target, taskId, byKey);
        return byKey;
      };
      entries.set(taskId, { columns, get });
      Object.defineProperty(target, taskId, {
        get,
        set: (value: Record<string, TaskValueRecord[]>) => define(target, taskId, value),
        enumerable: true,
        configurable: true,
      });
    }
    registry.set(target, entries);
    return target;
  },

  /**
   * The columns of `taskMetricValues[taskId]` while that entry was never read nor replaced (so the
   * columns are exactly its records), else null.
   */
  columns(taskMetricValues: object, taskId: string): TaskColumns | null {
    const entry = registry.get(taskMetricValues)?.get(taskId);
    if (entry === undefined) return null;
    const descriptor = Object.getOwnPropertyDescriptor(taskMetricValues, taskId);
    return descriptor?.get === entry.get ? entry.columns : null;
  },

  /**
   * A `(taskId, key, index) => boolean | undefined` lookup of the float-literal kind of integral
   * numeric records (`TaskValueColumn.FLOAT`); undefined for other records, unknown lists, or a list
   * whose length changed since it was built.
   */
  floatLookup(
    taskMetricValues: TaskMetricValues,
  ): (taskId: string, key: string, index: number) => boolean | undefined {
    const entries = registry.get(taskMetricValues);
    const lookup = (taskId: string, key: string, index: number): boolean | undefined => {
      const columns = entries?.get(taskId)?.columns;
      if (columns === undefined) return undefined;
      let column: TaskValueColumn | undefined;
      for (const [k, c] of columns) {
        if (k === key) {
          column = c;
          break;
        }
      }
      if (column === undefined || index >= column.length) return undefined;
      const records = taskMetricValues[taskId]?.[key];
      if (records === undefined || records.length !== column.length) return undefined;
      const kind = column.kind(index);
      if (kind !== TaskValueColumn.NUMBER && kind !== TaskValueColumn.FLOAT) return undefined;
      if (!Number.isInteger(column.values[index])) return undefined;
      return kind === TaskValueColumn.FLOAT;
    };
    floatLookups.add(lookup);
    return lookup;
  },

  /** Whether `lookup` came from `floatLookup` (its answers are the columns' FLOAT kinds). */
  isFloatLookup(lookup: unknown): boolean {
    return typeof lookup === 'function' && floatLookups.has(lookup);
  },
} as const;

/** A plain data property (left as is when the object was frozen or sealed). */
function define(target: object, key: string, value: unknown): void {
  Reflect.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
