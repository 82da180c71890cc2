import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import { declaredValueSchemas } from './declared-value-schemas.js';
import type { TaskValueFloatLookup } from './summary-to-wire.js';
import { TaskValueFloatness } from './task-value-floatness.js';

/**
 * A `SummaryBuilder` plus what the bundle writer needs to print its task values with the right JSON
 * number types. Scores stream through; memory is the builder's.
 *
 * @example
 * const acc = new SummaryAccumulator(tasks);
 * for (const s of scores) acc.addScore(s);
 * const { summary, isFloat } = acc.finish();
 */
export class SummaryAccumulator {
  readonly #builder: SummaryBuilder;
  readonly #floats = new TaskValueFloatness();
  readonly #tasks: Map<string, TaskSpec> | null;

  constructor(tasks: readonly TaskSpec[] | null) {
    this.#builder = new SummaryBuilder(tasks);
    this.#tasks = tasks === null ? null : new Map(tasks.map((t) => [t.id, t]));
  }

  /**
   * Adds one score (in run order). `task` overrides the spec used for float-ness of in-memory values;
   * `text` is the line the score was read from, when it was not registered in `rowSources`.
   */
  addScore(score: ScoreRecord, task?: TaskSpec | null, text?: string): void {
    this.#builder.addScore(score);
    if (text !== undefined) {
      this.#floats.addScore(score, undefined, text);
      return;
    }
    const spec = task ?? this.#tasks?.get(score.task_id) ?? null;
    this.#floats.addScore(score, spec === null ? undefined : declaredValueSchemas(spec));
  }

  /** Adds one trial for the error rollup. */
  addTrial(trial: Pick<Trial, 'id' | 'error'>): void {
    this.#builder.addTrial(trial);
  }

  /** The summary and what the writers need to print its task values (`summaryJsonChunks`). Call once. */
  finish(extraScores: readonly AggregateScore[] = []): { summary: Summary; isFloat: TaskValueFloatLookup } {
    const summary = this.#builder.finish(extraScores);
    return { summary, isFloat: this.#floats.lookupFor(summary.task_metric_values) };
  }
}
