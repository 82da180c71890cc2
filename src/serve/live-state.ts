import type { ReadyReason } from '../evidence/otlp/otlp-trial-grouper.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { AgentOutput } from '../model/trial.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import { StringKeyIndex } from '../util/string-key-index.js';
import { LiveIntervals, type LiveIntervalsJson } from './live-intervals.js';

/** One trial's latest scored version as the live state keeps it. */
interface KeptTrial {
  scored: ScoredTrial;
  version: number;
  completion: ReadyReason;
}

/** A live event (`GET /v1/events`, the live page). */
export interface LiveEvent {
  type: string;
  data: unknown;
}

/**
 * The live end of `serve`'s road: keeps every trial's latest scored version (plain records, no
 * evidence) and serves what is read while the run goes on: the summary (the file path's
 * `SummaryBuilder`, over the latest versions, tasks in first-scored order), the live intervals, one
 * trial, and score events. A re-scored trial replaces its earlier version everywhere; the summary
 * and intervals are then rebuilt on their next read.
 *
 * @example
 * const state = new LiveState(null);
 * state.put('key\u0000t1', scored, 'ended'); // version 1
 * state.summary().trial_count; // 1
 */
export class LiveState {
  readonly #kept: KeptTrial[] = [];
  /** Position in `#kept` by trial key and by trial id (one per trial of the run). */
  readonly #byKey = new StringKeyIndex();
  readonly #byTrialId = new StringKeyIndex();
  readonly #listeners = new Set<(event: LiveEvent) => void>();
  /** Fed each new trial once a summary was asked for; null before, and after a re-scoring. */
  #builder: SummaryBuilder | null = null;
  #summary: Summary | null = null;
  #lightSummary: Summary | null = null;
  readonly #intervals = new LiveIntervals(0.05);
  #intervalsStale = false;
  #intervalsJson: LiveIntervalsJson | null = null;

  constructor(private readonly stopWhenWidth: number | null) {}

  /** Number of trials kept. */
  get size(): number {
    return this.#kept.length;
  }

  /** Keeps `scored` as the latest version of the trial `key`; returns its version (1, 2, …). */
  put(key: string, scored: ScoredTrial, completion: ReadyReason): number {
    const item = scored.item;
    // the output is copied as plain data: an OTLP trial's lazy `output_text` holds its trace handle
    const plain: ScoredTrial = {
      ...scored,
      item: {
        ...item,
        evidence: null,
        trial: { ...item.trial, output: plainOutput(item.trial.output), evidence: null },
      },
    };
    const at = this.#byKey.get(key);
    let version = 1;
    if (at === undefined) {
      this.#byKey.set(key, this.#kept.length);
      this.#byTrialId.set(item.trial.id, this.#kept.length);
      this.#kept.push({ scored: plain, version, completion });
      if (this.#builder !== null) addToSummary(this.#builder, plain);
      this.#intervals.add(plain);
    } else {
      const kept = this.#kept[at]!;
      version = kept.version + 1;
      this.#kept[at] = { scored: plain, version, completion };
      this.#builder = null;
      this.#intervalsStale = true;
    }
    this.#summary = null;
    this.#lightSummary = null;
    this.#intervalsJson = null;
    if (this.#listeners.size > 0) {
      const event: LiveEvent = {
        type: 'score',
        data: {
          trial_id: item.trial.id,
          task_id: scored.task.id,
          version,
          completion,
          scores: scored.scores,
        },
      };
      for (const listener of this.#listeners) listener(event);
    }
    return version;
  }

  /** Every trial's latest version, in first-scored order. */
  *eachFinalTrial(): Generator<ScoredTrial> {
    for (const kept of this.#kept) yield kept.scored;
  }

  /** The summary of every trial's latest version (as `buildSummary`, tasks in first-scored order). */
  summary(): Summary {
    this.#summary ??= this.#currentBuilder().snapshot();
    return this.#summary;
  }

  /** {@link summary} with `task_metric_values` left empty (`{}`): cheaper for a large run. */
  summaryWithoutTaskValues(): Summary {
    if (this.#summary !== null) return { ...this.#summary, task_metric_values: {} };
    this.#lightSummary ??= this.#currentBuilder().snapshot([], { taskValues: false });
    return this.#lightSummary;
  }

  /**
   * The live summary (`GET /v1/summary`): {@link summary}, plus `intervals`: per output bounded in
   * [0, 1], the fixed-n interval next to an anytime-valid confidence sequence, and the stop width.
   */
  summaryJson(options: { omitTaskValues?: boolean } = {}): unknown {
    const intervals = this.intervalsJson();
    if (!options.omitTaskValues) return { ...this.summary(), intervals };
    const { task_metric_values: _omitted, ...rest } = this.summaryWithoutTaskValues();
    return { ...rest, intervals };
  }

  /** The `intervals` of {@link summaryJson}. */
  intervalsJson(): LiveIntervalsJson {
    if (this.#intervalsJson !== null) return this.#intervalsJson;
    if (this.#intervalsStale) {
      this.#intervals.clear();
      for (const kept of this.#kept) this.#intervals.add(kept.scored);
      this.#intervalsStale = false;
    }
    this.#intervalsJson = this.#intervals.json(this.stopWhenWidth);
    return this.#intervalsJson;
  }

  /** One trial's latest version (`GET /v1/trials/:id`), or undefined. */
  trialJson(trialId: string): unknown {
    const at = this.#byTrialId.get(trialId);
    if (at === undefined) return undefined;
    const { scored, version, completion } = this.#kept[at]!;
    return {
      trial_id: scored.item.trial.id,
      task_id: scored.task.id,
      version,
      completion,
      status: scored.item.trial.status,
      scores: scored.scores,
    };
  }

  /** Subscribes to score events; returns the unsubscribe function. */
  onEvent(listener: (event: LiveEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #currentBuilder(): SummaryBuilder {
    if (this.#builder === null) {
      this.#builder = new SummaryBuilder([]);
      for (const kept of this.#kept) addToSummary(this.#builder, kept.scored);
    }
    return this.#builder;
  }
}

function addToSummary(builder: SummaryBuilder, trial: ScoredTrial): void {
  // tasks in first-scored order, each with its first trial's spec
  if (!builder.hasTask(trial.task.id)) builder.addTaskSpec(trial.task);
  for (const score of trial.scores) builder.addScore(score);
  builder.addTrial(trial.item.trial);
}

/** A plain copy of a trial output (reads a lazy `output_text` once; keeps no trace handle). */
function plainOutput(output: AgentOutput | null): AgentOutput | null {
  return output === null ? null : { ...output };
}
