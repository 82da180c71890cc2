import type { ItemOrigin, TrialItem } from '../../model/trial-item.js';
import { buildOtlpTrialPart, type OtlpTrialPart } from './build-otlp-trial-part.js';
import { OTLPTraceHandle } from './otlp-trace-handle.js';
import type { OtlpRequestItem } from './otlp-stream-types.js';
import type { OtlpLogRecord, OtlpSpan } from './otlp-types.js';
import { KeyNoter, resolveNotedKey, type KeyNotes } from './trial-key-rule.js';

/** How spans are grouped into trials. Every field is optional; the defaults are documented inline. */
export interface OtlpGroupingConfig {
  /**
   * Attributes naming the trial a trace belongs to, tried in order; span attributes win over resource
   * attributes. Default `['gen_ai.conversation.id']` (the session id NeMo stamps as `{run}:{trial}`).
   * A trace carrying none of them is a trial of its own, named by its trace id.
   */
  trialKeys?: readonly string[];
  /**
   * Attributes naming the task, tried in order (span over resource). Default `['nemo.test_case.name']`.
   * Without one the task id is the trial id (each trial its own task).
   */
  taskKeys?: readonly string[];
  /**
   * A trace is complete once this many requests (lines/frames) passed without a span of it, and a
   * trial once all its traces are. Default 256. Spans of one trial further apart split it.
   */
  windowRequests?: number;
  /**
   * Most spans held at once (open traces plus trials not yet emitted); beyond it the least recently
   * active traces are closed and their trials emitted early. Default 100000.
   */
  maxOpenSpans?: number;
}

interface OpenTrace {
  traceId: string;
  spans: OtlpSpan[];
  /** Trial keys then task keys, noted as the spans arrive. */
  notes: KeyNotes;
  logs: OtlpLogRecord[];
  firstSeq: number;
  lastSeq: number;
  origin: ItemOrigin;
}

interface OpenTrial {
  key: string;
  trialId: string;
  taskId: string | null;
  traces: OpenTrace[];
  firstSeq: number;
  lastSeq: number;
  origin: ItemOrigin;
  spanCount: number;
}

function byFirstSeq(a: { firstSeq: number }, b: { firstSeq: number }): number {
  return a.firstSeq - b.firstSeq;
}

/**
 * Groups decoded OTLP requests into trials with bounded memory (the state behind the
 * `groupIntoTrials` operator). Spans are collected per trace; a trace closes when it has been idle for
 * `windowRequests` requests (or memory is short, or the input ends); on close its trial key is read
 * from the shallowest span carrying one of `trialKeys` (so a sub-agent stamped with its own
 * conversation id stays in its caller's trial) and it joins that trial (or is a trial of its own,
 * named by its trace id); a trial is emitted once all its traces are closed. Log records in the same
 * requests follow their trace. Trials are emitted in order of their first span.
 *
 * @example
 * const g = new OtlpTrialGrouper({});
 * const ready = [...g.push(item1), ...g.push(item2), ...g.flush()];
 */
export class OtlpTrialGrouper {
  /** `windowRequests` when not configured. */
  static readonly defaultWindowRequests = 256;
  /** `maxOpenSpans` when not configured. */
  static readonly defaultMaxOpenSpans = 100_000;
  readonly #trialKeys: readonly string[];
  readonly #taskKeys: readonly string[];
  readonly #window: number;
  readonly #maxOpenSpans: number;
  /** Open traces, least recently active first. */
  readonly #traces = new Map<string, OpenTrace>();
  readonly #trials = new Map<string, OpenTrial>();
  readonly #emitted = new Map<string, number>();
  /** How each emitted item was made, for `partOf`. */
  readonly #parts = new WeakMap<TrialItem, OtlpTrialPart>();
  /** Notes trial keys then task keys as spans arrive. */
  readonly #noter: KeyNoter;
  #seq = 0;
  /** Spans held: in open traces and in trials not yet emitted. */
  #heldSpans = 0;

  constructor(config: OtlpGroupingConfig) {
    this.#trialKeys = config.trialKeys ?? ['gen_ai.conversation.id'];
    this.#taskKeys = config.taskKeys ?? ['nemo.test_case.name'];
    this.#window = Math.max(1, config.windowRequests ?? OtlpTrialGrouper.defaultWindowRequests);
    this.#maxOpenSpans = Math.max(1, config.maxOpenSpans ?? OtlpTrialGrouper.defaultMaxOpenSpans);
    this.#noter = new KeyNoter([...this.#trialKeys, ...this.#taskKeys]);
  }

  /** `resolveKey(t.spans, keys)` from the values noted as spans arrived (keys at `offset` in `#keys`). */
  #resolve(t: OpenTrace, keys: readonly string[], offset: number): string | null {
    return resolveNotedKey([t.notes], keys, offset, () => t.spans);
  }

  /** Adds one request; returns the trials that became complete. */
  push(item: OtlpRequestItem): TrialItem[] {
    this.#seq += 1;
    const seq = this.#seq;
    const origin: ItemOrigin =
      item.line === null ? { file: item.file, offset: item.offset } : { file: item.file, line: item.line };
    // consecutive spans mostly belong to the same trace: remember the last one
    let last: OpenTrace | null = null;
    for (const rs of item.request.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          const traceId = span.traceId;
          if (last === null || last.traceId !== traceId) last = this.#touch(traceId, seq, origin);
          last.spans.push(span);
          this.#noter.note(last.notes, span);
          this.#heldSpans += 1;
        }
      }
    }
    for (const log of item.request.logRecords) {
      if (log.traceId !== '') this.#touch(log.traceId, seq, origin).logs.push(log);
    }
    for (const t of this.#traces.values()) {
      if (seq - t.lastSeq < this.#window) break;
      this.#close(t);
    }
    let done: Set<OpenTrial> | null = null;
    let released = 0;
    for (const trial of this.#trials.values()) {
      if (seq - trial.lastSeq < this.#window) continue;
      (done ??= new Set()).add(trial);
      released += trial.spanCount;
    }
    // Memory pressure: close the least recently active traces and let their trials go early.
    while (this.#heldSpans - released > this.#maxOpenSpans) {
      const t = this.#traces.values().next().value;
      if (t === undefined) break;
      const trial = this.#close(t);
      if (trial !== null && !(done ??= new Set()).has(trial)) {
        done.add(trial);
        released += trial.spanCount;
      }
    }
    return done === null ? [] : this.#emit([...done]);
  }

  /** The open trace `traceId`, created or moved to the most recently active end. */
  #touch(traceId: string, seq: number, origin: ItemOrigin): OpenTrace {
    let t = this.#traces.get(traceId);
    if (t === undefined) {
      t = {
        traceId,
        spans: [],
        notes: this.#noter.start(),
        logs: [],
        firstSeq: seq,
        lastSeq: seq,
        origin,
      };
      this.#traces.set(traceId, t);
    } else if (t.lastSeq !== seq) {
      this.#traces.delete(traceId);
      this.#traces.set(traceId, t);
      t.lastSeq = seq;
    }
    return t;
  }

  /** Spans held now: in open traces and in trials not yet emitted. */
  get heldSpans(): number {
    return this.#heldSpans;
  }

  /** How an item this grouper emitted was made: its trial key, part number and the pieces of its id. */
  partOf(item: TrialItem): OtlpTrialPart | undefined {
    return this.#parts.get(item);
  }

  /** Closes everything still open and returns the remaining trials (end of input, or before an error). */
  flush(): TrialItem[] {
    for (const t of [...this.#traces.values()]) this.#close(t);
    return this.#emit([...this.#trials.values()]);
  }

  #close(t: OpenTrace): OpenTrial | null {
    this.#traces.delete(t.traceId);
    if (t.spans.length === 0) return null; // log records of a trace with no spans cannot be placed
    const trialValue = this.#resolve(t, this.#trialKeys, 0);
    const key = trialValue === null ? `trace\u0000${t.traceId}` : `key\u0000${trialValue}`;
    let trial = this.#trials.get(key);
    if (trial === undefined) {
      trial = {
        key,
        trialId: trialValue ?? t.traceId,
        taskId: null,
        traces: [],
        firstSeq: t.firstSeq,
        lastSeq: t.lastSeq,
        origin: t.origin,
        spanCount: 0,
      };
      this.#trials.set(key, trial);
    }
    trial.taskId ??= this.#resolve(t, this.#taskKeys, this.#trialKeys.length);
    trial.traces.push(t);
    if (t.firstSeq < trial.firstSeq) {
      trial.firstSeq = t.firstSeq;
      trial.origin = t.origin;
    }
    trial.lastSeq = Math.max(trial.lastSeq, t.lastSeq);
    trial.spanCount += t.spans.length;
    return trial;
  }

  #emit(trials: OpenTrial[]): TrialItem[] {
    if (trials.length > 1) trials.sort(byFirstSeq);
    return trials.map((trial) => {
      this.#trials.delete(trial.key);
      this.#heldSpans -= trial.spanCount;
      const part = (this.#emitted.get(trial.key) ?? 0) + 1;
      this.#emitted.set(trial.key, part);
      const traces = trial.traces.length > 1 ? [...trial.traces].sort(byFirstSeq) : trial.traces;
      const handle =
        traces.length === 1
          ? OTLPTraceHandle.fromSpans((traces[0] as OpenTrace).spans, (traces[0] as OpenTrace).logs)
          : OTLPTraceHandle.fromSpans(
              traces.flatMap((t) => t.spans),
              traces.flatMap((t) => t.logs),
            );
      const made: OtlpTrialPart = {
        key: trial.key,
        part,
        trialId: trial.trialId,
        taskId: trial.taskId,
        handle,
        origin: trial.origin,
      };
      const item = buildOtlpTrialPart(made);
      this.#parts.set(item, made);
      return item;
    });
  }
}
