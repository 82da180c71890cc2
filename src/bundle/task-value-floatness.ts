import type { ScoreRecord } from '../model/score-record.js';
import { floatPathKey } from './float-path-key.js';
import type { ValueSchemaLookup } from './score-to-wire.js';
import type { TaskValueFloatLookup } from './summary-to-wire.js';
import { textFloatPaths } from './text-float-paths.js';

/**
 * Remembers, for every numeric task value the summary will hold, whether the metric produced a float
 * or an int, so `summary.json` writes `1.0` where the SDK would (task values keep the JSON type of the
 * output). Feed it the same scores, in the same order, as the `SummaryBuilder`; it mirrors the
 * builder's rule (first output of a name on a completed/partial score).
 *
 * @example
 * const floats = new TaskValueFloatness();
 * for (const s of scores) { builder.addScore(s); floats.addScore(s); }
 * const summary = builder.finish();
 * summaryToWire(summary, floats.lookupFor(summary.task_metric_values));
 */
export class TaskValueFloatness {
  readonly #flags = new Map<string, boolean[]>();

  /** Records the float-ness of the numeric outputs of one score. */
  addScore(score: ScoreRecord, valueSchemaOf?: ValueSchemaLookup): void {
    if (score.status === 'failed') return;
    const outputs = score.outputs;
    if (outputs.length === 0) return;
    const paths = textFloatPaths.get(score);
    const fromText = paths !== undefined;
    let seen: Set<string> | null = null;
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs[i];
      if (output === undefined) continue;
      if (outputs.length > 1) {
        seen ??= new Set();
        if (seen.has(output.name)) continue;
        seen.add(output.name);
      }
      const value = output.value;
      if (typeof value !== 'number') continue;
      let float: boolean;
      if (!Number.isInteger(value)) float = true;
      else if (fromText) float = paths !== null && paths.has(floatPathKey(['outputs', i, 'value']));
      else float = valueSchemaOf?.(score.metric_type, output.name) === 'ContinuousScore';
      const key = `${score.task_id}\u0000${score.metric_type}.${output.name}`;
      const list = this.#flags.get(key);
      if (list === undefined) this.#flags.set(key, [float]);
      else list.push(float);
    }
  }

  /**
   * A lookup for `summaryToWire` over one finished summary: numeric (non-boolean) records of each
   * list consume the recorded flags in order.
   */
  lookupFor(taskMetricValues: Record<string, Record<string, { value: unknown }[]>>): TaskValueFloatLookup {
    const byPosition = new Map<string, (boolean | undefined)[]>();
    for (const [taskId, byKey] of Object.entries(taskMetricValues)) {
      for (const [key, records] of Object.entries(byKey)) {
        const flags = this.#flags.get(`${taskId}\u0000${key}`) ?? [];
        const numeric = records.filter((r) => typeof r.value === 'number').length;
        const aligned = flags.length === numeric;
        let next = 0;
        byPosition.set(
          `${taskId}\u0000${key}`,
          records.map((r) =>
            typeof r.value === 'number' ? (aligned ? flags[next++] : undefined) : undefined,
          ),
        );
      }
    }
    return (taskId, key, index) => byPosition.get(`${taskId}\u0000${key}`)?.[index];
  }
}
