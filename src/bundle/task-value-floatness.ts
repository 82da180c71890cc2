import type { ScoreRecord } from '../model/score-record.js';
import { FLOAT_LITERAL_HINT } from './float-literal-hint.js';
import { outputLiteralIsFloat } from './output-literal-is-float.js';
import { rowSources } from './row-sources.js';
import type { ValueSchemaLookup } from './score-to-wire.js';
import type { TaskValueFloatLookup } from './summary-to-wire.js';

/**
 * Remembers, for every numeric task value the summary will hold, whether the metric produced a float
 * or an int, so `summary.json` writes `1.0` where the SDK would (task values keep the JSON type of the
 * output). Feed it the same scores, in the same order, as the `SummaryBuilder`; it mirrors the
 * builder's rule (first output of a name on a completed/partial score). Scores read from a bundle
 * keep the type of their literal; scores built in memory are floats when declared `ContinuousScore`.
 *
 * @example
 * const floats = new TaskValueFloatness();
 * for (const s of scores) { builder.addScore(s); floats.addScore(s); }
 * const summary = builder.finish();
 * summaryToWire(summary, floats.lookupFor(summary.task_metric_values));
 */
export class TaskValueFloatness {
  /** task id → metric type → output name → flags in score order. */
  readonly #flags = new Map<string, Map<string, Map<string, boolean[]>>>();

  /**
   * Records the float-ness of the numeric outputs of one score. `text` is the line the score was
   * parsed from, when the caller kept it instead of registering the row in `rowSources`.
   */
  addScore(score: ScoreRecord, valueSchemaOf?: ValueSchemaLookup, text?: string): void {
    if (score.status === 'failed') return;
    const outputs = score.outputs;
    const n = outputs.length;
    if (n === 0) return;
    let byName: Map<string, boolean[]> | undefined;
    // a line without any float-looking literal has only int literals: no need to look closer
    const literalFloats = text === undefined ? true : FLOAT_LITERAL_HINT.test(text);
    outer: for (let i = 0; i < n; i++) {
      const output = outputs[i] as ScoreRecord['outputs'][number];
      const value = output.value;
      if (typeof value !== 'number') continue;
      for (let j = 0; j < i; j++)
        if ((outputs[j] as ScoreRecord['outputs'][number]).name === output.name) continue outer;
      let float: boolean;
      if (!Number.isInteger(value)) float = true;
      else if (text !== undefined) float = literalFloats && outputLiteralIsFloat(score, i, text);
      else
        float =
          rowSources.outputValueIsFloat(score, i) ??
          valueSchemaOf?.(score.metric_type, output.name) === 'ContinuousScore';
      byName ??= this.#byName(score.task_id, score.metric_type);
      const list = byName.get(output.name);
      if (list === undefined) byName.set(output.name, [float]);
      else list.push(float);
    }
  }

  #byName(taskId: string, metricType: string): Map<string, boolean[]> {
    let byMetric = this.#flags.get(taskId);
    if (byMetric === undefined) this.#flags.set(taskId, (byMetric = new Map()));
    let byName = byMetric.get(metricType);
    if (byName === undefined) byMetric.set(metricType, (byName = new Map()));
    return byName;
  }

  /**
   * A lookup for `summaryToWire` over one finished summary: numeric (non-boolean) records of each
   * list consume the recorded flags in order (unknown when the counts disagree).
   */
  lookupFor(taskMetricValues: Record<string, Record<string, { value: unknown }[]>>): TaskValueFloatLookup {
    const byPosition = new Map<string, (boolean | undefined)[]>();
    for (const [taskId, byKey] of Object.entries(taskMetricValues)) {
      const byMetric = this.#flags.get(taskId);
      for (const [key, records] of Object.entries(byKey)) {
        const flags = byMetric === undefined ? [] : flagsFor(byMetric, key);
        const numeric = records.reduce((k, r) => k + (typeof r.value === 'number' ? 1 : 0), 0);
        const aligned = flags.length === numeric;
        let next = 0;
        byPosition.set(
          `${taskId}\u0000${key}`,
          records.map((r) => (typeof r.value === 'number' && aligned ? flags[next++] : undefined)),
        );
      }
    }
    return (taskId, key, index) => byPosition.get(`${taskId}\u0000${key}`)?.[index];
  }
}

/** The flags of key `<type>.<output>`; metric types may contain dots, so try every split. */
function flagsFor(byMetric: Map<string, Map<string, boolean[]>>, key: string): boolean[] {
  for (let dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', dot + 1)) {
    const list = byMetric.get(key.slice(0, dot))?.get(key.slice(dot + 1));
    if (list !== undefined) return list;
  }
  return [];
}
