import type { ScoreRecord } from '../model/score-record.js';
import { mayHaveIntegralFloat } from '../pycompat/may-have-integral-float.js';
import { outputLiteralIsFloat } from './output-literal-is-float.js';
import { rowSources } from './row-sources.js';
import type { ValueSchemaLookup, TaskValueFloatLookup } from './to-wire.js';

/**
 * Remembers, for every integral numeric task value the summary will hold, whether the metric produced a float
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
  // scores arrive grouped by trial and task: remember the last (task, metric) bucket
  #lastTask = '';
  #lastMetric = '';
  #lastByName: Map<string, boolean[]> | null = null;

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
    // whether the line may hold an integral float literal at all, decided once per line: most lines
    // hold none, and then every integral value in it is an int literal
    let lineMayFloat = 0; // 0 = not yet known, 1 = yes, 2 = no
    outer: for (let i = 0; i < n; i++) {
      const output = outputs[i] as ScoreRecord['outputs'][number];
      const value = output.value;
      if (typeof value !== 'number') continue;
      for (let j = 0; j < i; j++)
        if ((outputs[j] as ScoreRecord['outputs'][number]).name === output.name) continue outer;
      // a non-integral number prints as a float anyway: only integral values need a flag
      if (!Number.isInteger(value)) continue;
      let float: boolean;
      if (text !== undefined) {
        if (lineMayFloat === 0) lineMayFloat = mayHaveIntegralFloat(text) ? 1 : 2;
        float = lineMayFloat === 1 && outputLiteralIsFloat(score, i, text);
      } else
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
    if (this.#lastByName !== null && taskId === this.#lastTask && metricType === this.#lastMetric) {
      return this.#lastByName;
    }
    let byMetric = this.#flags.get(taskId);
    if (byMetric === undefined) this.#flags.set(taskId, (byMetric = new Map()));
    let byName = byMetric.get(metricType);
    if (byName === undefined) byMetric.set(metricType, (byName = new Map()));
    this.#lastTask = taskId;
    this.#lastMetric = metricType;
    this.#lastByName = byName;
    return byName;
  }

  /**
   * A lookup for the summary writers over one finished summary: the integral numeric records of
   * each list consume the recorded flags in order (unknown when the counts disagree). Cheapest when
   * asked in order, list by list, as `summaryJsonBytes` does.
   */
  lookupFor(taskMetricValues: Record<string, Record<string, { value: unknown }[]>>): TaskValueFloatLookup {
    let cachedTask: string | null = null;
    let cachedKey: string | null = null;
    let flags: boolean[] = [];
    let aligned = false;
    let lastIndex = -1;
    let next = 0;
    let records: { value: unknown }[] | undefined;
    return (taskId, key, index) => {
      if (taskId !== cachedTask || key !== cachedKey || index <= lastIndex) {
        records = taskMetricValues[taskId]?.[key];
        if (records === undefined) {
          cachedTask = null;
          return undefined;
        }
        cachedTask = taskId;
        cachedKey = key;
        const byMetric = this.#flags.get(taskId);
        flags = byMetric === undefined ? [] : flagsFor(byMetric, key);
        let numeric = 0;
        for (const r of records) if (isIntegral(r.value)) numeric++;
        aligned = numeric === flags.length;
        lastIndex = -1;
        next = 0;
      }
      if (records === undefined) return undefined;
      // advance over the records between the last answer and this one
      for (let i = lastIndex + 1; i < index; i++) if (isIntegral(records[i]?.value)) next++;
      lastIndex = index;
      if (!isIntegral(records[index]?.value)) return undefined;
      return aligned ? flags[next++] : (next++, undefined);
    };
  }
}

function isIntegral(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value);
}

/** The flags of key `<type>.<output>`; metric types may contain dots, so try every split. */
function flagsFor(byMetric: Map<string, Map<string, boolean[]>>, key: string): boolean[] {
  for (let dot = key.indexOf('.'); dot >= 0; dot = key.indexOf('.', dot + 1)) {
    const list = byMetric.get(key.slice(0, dot))?.get(key.slice(dot + 1));
    if (list !== undefined) return list;
  }
  return [];
}
