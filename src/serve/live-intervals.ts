import type { ScoredTrial } from '../model/scored-trial.js';
import { studentTQuantile } from '../pycompat/student-t-quantile.js';
import { confidenceSequence } from '../stats/confidence-sequence.js';

/** One output's intervals at `/v1/summary` (`intervals.outputs[]`). */
export interface LiveOutputIntervals {
  /** `<metric type>.<output name>`, as the summary's aggregates are named. */
  name: string;
  n: number;
  mean: number;
  /** Student-t 1 − alpha interval for this n: valid only if n was fixed before looking. */
  fixed_n: { lower: number; upper: number } | null;
  /** Anytime-valid confidence sequence on [0, 1]: valid however often it is looked at. */
  sequence: { lower: number; upper: number; width: number };
}

/** The `intervals` key of the live summary. */
export interface LiveIntervalsJson {
  alpha: number;
  fixed_n_method: string;
  sequence_method: string;
  /** `--stop-when-width`, or null. */
  stop_when_width: number | null;
  /** With a stop width: whether every output's sequence is narrower than it (false with no outputs). */
  stop_reached: boolean | null;
  outputs: (LiveOutputIntervals & { narrower_than_stop: boolean | null })[];
}

/**
 * The per-output values of a live run, in first-scored order, and their intervals: for each output
 * whose values all lie in [0, 1] (scores, pass rates, booleans as 0/1) the fixed-n Student-t interval
 * next to an anytime-valid confidence sequence ({@link confidenceSequence}), and whether each
 * sequence is narrower than a stop width. Outputs with a value outside [0, 1] have no known bound
 * and get neither.
 *
 * @example
 * const intervals = new LiveIntervals(0.05);
 * intervals.add(scoredTrial);
 * intervals.json(0.1); // { alpha: 0.05, stop_when_width: 0.1, stop_reached: false, outputs: [...] }
 */
export class LiveIntervals {
  readonly #values = new Map<string, number[]>();

  constructor(readonly alpha: number) {}

  /** Adds a newly scored trial's output values. */
  add(trial: ScoredTrial): void {
    for (const score of trial.scores) {
      for (const output of score.outputs) {
        const value =
          typeof output.value === 'boolean'
            ? Number(output.value)
            : typeof output.value === 'number'
              ? output.value
              : NaN;
        if (!Number.isFinite(value)) continue;
        const name = `${score.metric_type}.${output.name}`;
        let values = this.#values.get(name);
        if (values === undefined) this.#values.set(name, (values = []));
        values.push(value);
      }
    }
  }

  /** Forgets every value (then `add` each trial's latest version again, in first-scored order). */
  clear(): void {
    this.#values.clear();
  }

  json(stopWhenWidth: number | null): LiveIntervalsJson {
    const outputs: LiveIntervalsJson['outputs'] = [];
    for (const [name, values] of this.#values) {
      if (!values.every((v) => v >= 0 && v <= 1)) continue;
      const sequence = confidenceSequence(values, { alpha: this.alpha })!;
      const n = values.length;
      let sum = 0;
      for (const v of values) sum += v;
      const mean = sum / n;
      let squares = 0;
      for (const v of values) squares += (v - mean) ** 2;
      const half =
        n < 2 ? null : studentTQuantile(1 - this.alpha / 2, n - 1) * Math.sqrt(squares / (n - 1) / n);
      const width = sequence.upper - sequence.lower;
      outputs.push({
        name,
        n,
        mean,
        fixed_n: half === null ? null : { lower: mean - half, upper: mean + half },
        sequence: { lower: sequence.lower, upper: sequence.upper, width },
        narrower_than_stop: stopWhenWidth === null ? null : width < stopWhenWidth,
      });
    }
    return {
      alpha: this.alpha,
      fixed_n_method: 'Student-t on the mean, for a sample size fixed in advance',
      sequence_method:
        'empirical-Bernstein confidence sequence (Waudby-Smith & Ramdas 2023), valid at every n at once',
      stop_when_width: stopWhenWidth,
      stop_reached:
        stopWhenWidth === null
          ? null
          : outputs.length > 0 && outputs.every((o) => o.narrower_than_stop === true),
      outputs,
    };
  }
}
