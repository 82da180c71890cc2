import type { ScoreRecord } from '../model/score-record.js';
import type { AggregateScore, Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { Trial } from '../model/trial.js';
import { ColumnarTaskValues } from '../summary/columnar-task-values.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import { declaredValueSchemas } from './declared-value-schemas.js';
import { mayHaveIntegralFloat } from '../pycompat/may-have-integral-float.js';
import { outputLiteralIsFloat } from './output-literal-is-float.js';
import { rowSources } from './row-sources.js';
import type { ValueSchemaLookup, TaskValueFloatLookup } from './to-wire.js';

/**
 * A `SummaryBuilder` plus what the bundle writer needs to print its task values with the right JSON
 * number types: for every integral numeric task value, whether the metric produced a float or an int
 * (task values keep the JSON type of the output). Scores read from a bundle keep the type of their
 * literal; scores built in memory are floats when declared `ContinuousScore`. The builder stores that
 * bit with the record (its task values are columns), so nothing is kept per score here.
 *
 * @example
 * const acc = new SummaryAccumulator(tasks);
 * for (const s of scores) acc.addScore(s);
 * const { summary, isFloat } = acc.finish();
 */
export class SummaryAccumulator {
  readonly #builder: SummaryBuilder;
  readonly #tasks: Map<string, TaskSpec> | null;
  // the score being added: its line (when read from text) or its declared value schemas
  #text = '';
  /** Whether `#text` may hold an integral float literal: 0 = not yet known, 1 = yes, 2 = no. */
  #lineMayFloat = 0;
  #schemas: ValueSchemaLookup | undefined = undefined;
  readonly #fromText = (score: ScoreRecord, index: number): boolean => {
    // decided once per line: most lines hold no integral float literal at all
    if (this.#lineMayFloat === 0) this.#lineMayFloat = mayHaveIntegralFloat(this.#text) ? 1 : 2;
    return this.#lineMayFloat === 1 && outputLiteralIsFloat(score, index, this.#text);
  };
  readonly #inMemory = (score: ScoreRecord, index: number): boolean =>
    rowSources.outputValueIsFloat(score, index) ??
    this.#schemas?.(score.metric_type, (score.outputs[index] as ScoreRecord['outputs'][number]).name) ===
      'ContinuousScore';

  constructor(tasks: readonly TaskSpec[] | null) {
    this.#builder = new SummaryBuilder(tasks);
    this.#tasks = tasks === null ? null : new Map(tasks.map((t) => [t.id, t]));
  }

  /**
   * Adds one score (in run order). `task` overrides the spec used for float-ness of in-memory values;
   * `text` is the line the score was read from, when it was not registered in `rowSources`.
   */
  addScore(score: ScoreRecord, task?: TaskSpec | null, text?: string): void {
    if (text !== undefined) {
      this.#text = text;
      this.#lineMayFloat = 0;
      this.#builder.addScore(score, this.#fromText);
      return;
    }
    const spec = task ?? this.#tasks?.get(score.task_id) ?? null;
    this.#schemas = spec === null ? undefined : declaredValueSchemas(spec);
    this.#builder.addScore(score, this.#inMemory);
  }

  /**
   * Declares a task first met in the stream, after those given to the constructor (which must have
   * been a list, maybe empty): a sink that learns its tasks from the trials it is handed calls this
   * before the task's first score, so the summary keeps first-seen task order.
   */
  addTaskSpec(spec: TaskSpec): void {
    this.#builder.addTaskSpec(spec);
    this.#tasks?.set(spec.id, spec);
  }

  /** Adds one trial for the error rollup. */
  addTrial(trial: Pick<Trial, 'id' | 'error'>): void {
    this.#builder.addTrial(trial);
  }

  /** The summary and what the writers need to print its task values (`summaryJsonBytes`). Call once. */
  finish(extraScores: readonly AggregateScore[] = []): { summary: Summary; isFloat: TaskValueFloatLookup } {
    const summary = this.#builder.finish(extraScores);
    const columns = ColumnarTaskValues.of(summary.task_metric_values) as ColumnarTaskValues;
    return { summary, isFloat: columns.isFloat };
  }
}
