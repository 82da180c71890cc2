import type { ReadyReason } from '../evidence/otlp/otlp-trial-grouper.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { TaskSpec } from '../model/task.js';
import type { AgentOutput } from '../model/trial.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import { deserialize, serialize } from 'node:v8';
import { grownTypedArray } from '../util/grown-typed-array.js';
import { StringKeyIndex } from '../util/string-key-index.js';
import { LiveIntervals, type LiveIntervalsJson } from './live-intervals.js';
import { SpillFile } from '../util/spill-file.js';

const COMPLETIONS: readonly ReadyReason[] = ['ended', 'idle-timeout', 'late-spans', 'shutdown'];

/** A live event (`GET /v1/events`, the live page). */
export interface LiveEvent {
  type: string;
  data: unknown;
}

/**
 * The live end of `serve`'s road: keeps every trial's latest scored version (plain records, no
 * evidence), serialized in a `SpillFile` rather than on the heap (a long run keeps a record per
 * trial; on the heap, 125k of them made most of what every collection had to go over), with their
 * offsets and versions in typed arrays, and serves what is read while the run goes on: the summary (the file path's
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
  // made at once: a temporary directory that cannot hold it stops `serve` before it accepts a span
  readonly #spill = new SpillFile().open();
  /** Per position (first-scored order): the latest version's record in the spill file, its version and completion. */
  #offsets = new Float64Array(64);
  #lengths = new Int32Array(64);
  #versions = new Int32Array(64);
  #completions = new Uint8Array(64);
  #size = 0;
  /** Position by trial key and by trial id (the last trial given that id). */
  readonly #byKey = new StringKeyIndex();
  readonly #byTrialId = new StringKeyIndex();
  /** Each task's spec as its first trial was scored with it; a kept trial with that spec names it. */
  readonly #tasks = new Map<string, TaskSpec>();
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
    return this.#size;
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
    // a task's trials share its spec (the planner's, fixed at its first trial): written once, here
    const task = scored.task;
    const known = this.#tasks.get(task.id);
    if (known === undefined) this.#tasks.set(task.id, task);
    const record = serialize(known === undefined || known === task ? { ...plain, task: task.id } : plain);
    const offset = this.#spill.append(record);
    const at = this.#byKey.get(key) ?? this.#size;
    let version = 1;
    if (at === this.#size) {
      this.#grow(at + 1);
      this.#size = at + 1;
      this.#byKey.set(key, at);
      this.#byTrialId.set(item.trial.id, at);
      if (this.#builder !== null) addToSummary(this.#builder, plain);
      this.#intervals.add(plain);
    } else {
      version = (this.#versions[at] as number) + 1;
      this.#builder = null;
      this.#intervalsStale = true;
    }
    this.#offsets[at] = offset;
    this.#lengths[at] = record.length;
    this.#versions[at] = version;
    this.#completions[at] = COMPLETIONS.indexOf(completion);
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
    for (let at = 0; at < this.#size; at++) yield this.#scored(at);
  }

  /** Lets the spill file go: the state is empty afterwards. */
  close(): void {
    this.#spill.close();
    this.#size = 0;
    this.#byKey.clear();
    this.#byTrialId.clear();
    this.#tasks.clear();
    this.#builder = null;
    this.#summary = null;
    this.#lightSummary = null;
    this.#intervals.clear();
    this.#intervalsJson = null;
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
      for (const scored of this.eachFinalTrial()) this.#intervals.add(scored);
      this.#intervalsStale = false;
    }
    this.#intervalsJson = this.#intervals.json(this.stopWhenWidth);
    return this.#intervalsJson;
  }

  /** One trial's latest version (`GET /v1/trials/:id`), or undefined. */
  trialJson(trialId: string): unknown {
    const at = this.#byTrialId.get(trialId);
    if (at === undefined) return undefined;
    const scored = this.#scored(at);
    return {
      trial_id: scored.item.trial.id,
      task_id: scored.task.id,
      version: this.#versions[at],
      completion: COMPLETIONS[this.#completions[at] as number],
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
      for (const scored of this.eachFinalTrial()) addToSummary(this.#builder, scored);
    }
    return this.#builder;
  }

  /** The latest version at position `at`, read back from the spill file. */
  #scored(at: number): ScoredTrial {
    const kept = deserialize(
      this.#spill.read(this.#offsets[at] as number, this.#lengths[at] as number),
    ) as Omit<ScoredTrial, 'task'> & { task: TaskSpec | string };
    const task = typeof kept.task === 'string' ? (this.#tasks.get(kept.task) as TaskSpec) : kept.task;
    return { ...kept, task };
  }

  /** Room for `n` positions. */
  #grow(n: number): void {
    if (n <= this.#offsets.length) return;
    const length = this.#offsets.length * 2;
    this.#offsets = grownTypedArray(this.#offsets, length);
    this.#lengths = grownTypedArray(this.#lengths, length);
    this.#versions = grownTypedArray(this.#versions, length);
    this.#completions = grownTypedArray(this.#completions, length);
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
