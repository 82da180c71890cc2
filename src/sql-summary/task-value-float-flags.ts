import type { TaskValueFloatLookup } from '../bundle/summary-to-wire.js';
import type { TaskValueRecord } from '../model/summary.js';

/**
 * Which integral numeric task values of a summary were written as float literals (`1.0`) in
 * `scores.jsonl`: the SQL summary marks them while it builds the record lists (`mark`), and
 * `lookupFor` answers the summary writers (`summaryJsonChunks`) as the in-memory engine's
 * `TaskValueFloatness` does.
 *
 * @example
 * const flags = new TaskValueFloatFlags();
 * const summary = await summarizeStoreRun(connection, runId, { floatFlags: flags });
 * summaryJsonBytes(summary, flags.lookupFor(summary.task_metric_values));
 */
export class TaskValueFloatFlags {
  readonly #marked = new Map<readonly TaskValueRecord[], Set<number>>();

  /** Marks record `index` of `list` as a float literal. */
  mark(list: readonly TaskValueRecord[], index: number): void {
    let set = this.#marked.get(list);
    if (set === undefined) this.#marked.set(list, (set = new Set()));
    set.add(index);
  }

  /** The lookup over one summary's task values (false for every unmarked integral value). */
  lookupFor(
    taskMetricValues: Record<string, Record<string, readonly TaskValueRecord[]>>,
  ): TaskValueFloatLookup {
    return (taskId, key, index) => {
      const byKey = Object.hasOwn(taskMetricValues, taskId) ? taskMetricValues[taskId] : undefined;
      const list = byKey !== undefined && Object.hasOwn(byKey, key) ? byKey[key] : undefined;
      if (list === undefined) return undefined;
      return this.#marked.get(list)?.has(index) ?? false;
    };
  }
}
