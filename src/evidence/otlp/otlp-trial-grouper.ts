import type { TrialDiagnostic } from '../../model/trial-diagnostic.js';
import type { ItemOrigin, TrialItem } from '../../model/trial-item.js';
import { buildOtlpTrialItem } from './build-otlp-trial-item.js';
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
  /**
   * Most log records held while no span of their trace has been seen (their spans may come later in
   * the input, e.g. from a logs file read before the traces file); beyond it the oldest are let go
   * and counted as attached to no trial. Default 100000.
   */
  maxWaitingLogRecords?: number;
}

/** Log records of one file that attach to no trial (see {@link OtlpTrialGrouper.unattachedLogRecords}). */
export interface UnattachedLogRecords {
  file: string;
  /** Records with no trace id (or an all-zero one): nothing to attach them by. */
  withoutTraceId: number;
  /** Records whose trace had no span in the input while they could still join it. */
  withoutSpans: number;
}

/** Log records of a trace no span of which has been seen yet, with the file each came from. */
interface WaitingLogs {
  logs: OtlpLogRecord[];
  files: string[];
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
  /** What the decoder went on past in this trace's spans; null: nothing. */
  diagnostics: TrialDiagnostic[] | null;
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
 * named by its trace id); a trial is emitted once all its traces are closed. Trials are emitted in
 * order of their first span. Log records follow their trace id, wherever they come (trace or logs
 * requests, before or after the spans): they keep an open trace open as spans do, and wait (bounded)
 * for a first span of their trace; those that attach to no trial are counted
 * (`unattachedLogRecords`).
 *
 * @example
 * const g = new OtlpTrialGrouper({});
 * const ready = [...g.push(item1), ...g.push(item2), ...g.flush()];
 */
export class OtlpTrialGrouper {
  readonly #trialKeys: readonly string[];
  readonly #taskKeys: readonly string[];
  readonly #window: number;
  readonly #maxOpenSpans: number;
  /** Open traces, least recently active first. */
  readonly #traces = new Map<string, OpenTrace>();
  readonly #trials = new Map<string, OpenTrial>();
  readonly #emitted = new Map<string, number>();
  /** Notes trial keys then task keys as spans arrive. */
  readonly #noter: KeyNoter;
  /** Log records waiting for a first span of their trace, oldest trace first. */
  readonly #waiting = new Map<string, WaitingLogs>();
  #waitingCount = 0;
  readonly #maxWaitingLogs: number;
  readonly #unattached = new Map<string, UnattachedLogRecords>();
  #seq = 0;
  /** Spans held: in open traces and in trials not yet emitted. */
  #heldSpans = 0;

  constructor(config: OtlpGroupingConfig) {
    this.#trialKeys = config.trialKeys ?? ['gen_ai.conversation.id'];
    this.#taskKeys = config.taskKeys ?? ['nemo.test_case.name'];
    this.#window = Math.max(1, config.windowRequests ?? 256);
    this.#maxOpenSpans = Math.max(1, config.maxOpenSpans ?? 100_000);
    this.#maxWaitingLogs = Math.max(0, config.maxWaitingLogRecords ?? 100_000);
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
    for (const log of item.request.logRecords) this.#placeLog(log, item.file, seq, origin);
    for (const issue of item.request.issues ?? []) {
      const t = this.#touch(issue.traceId, seq, origin);
      (t.diagnostics ??= []).push({
        code: issue.code,
        message: issue.spanId === '' ? issue.message : `span ${issue.spanId}: ${issue.message}`,
        file: item.file,
        line: item.line,
        offset: issue.offset,
        field: issue.field,
      });
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

  /**
   * A log record joins its trace while the trace is open (and keeps it open, as a span would); before
   * any span of its trace it waits for one (a trace is closed and its trial emitted in one step, so a
   * record after that finds neither and waits, to be counted at the end).
   */
  #placeLog(log: OtlpLogRecord, file: string, seq: number, origin: ItemOrigin): void {
    const traceId = log.traceId;
    if (/^0*$/.test(traceId)) {
      this.#unattachedOf(file).withoutTraceId += 1;
      return;
    }
    if (this.#traces.has(traceId)) {
      this.#touch(traceId, seq, origin).logs.push(log);
      return;
    }
    let waiting = this.#waiting.get(traceId);
    if (waiting === undefined) {
      waiting = { logs: [], files: [] };
      this.#waiting.set(traceId, waiting);
    }
    waiting.logs.push(log);
    waiting.files.push(file);
    this.#waitingCount += 1;
    while (this.#waitingCount > this.#maxWaitingLogs) {
      const [oldest] = this.#waiting.keys();
      this.#giveUpWaiting(oldest as string);
    }
  }

  /** Counts the log records waiting for spans of `traceId` as attached to no trial. */
  #giveUpWaiting(traceId: string): void {
    const waiting = this.#waiting.get(traceId);
    if (waiting === undefined) return;
    this.#waiting.delete(traceId);
    this.#waitingCount -= waiting.logs.length;
    for (const file of waiting.files) this.#unattachedOf(file).withoutSpans += 1;
  }

  #unattachedOf(file: string): UnattachedLogRecords {
    let counts = this.#unattached.get(file);
    if (counts === undefined) {
      counts = { file, withoutTraceId: 0, withoutSpans: 0 };
      this.#unattached.set(file, counts);
    }
    return counts;
  }

  /**
   * The log records that attach to no trial so far, per file in order of first such record: without
   * a trace id, or (once `flush` ran, or past `maxWaitingLogRecords`) whose trace had no span while
   * they could join it. Records are never dropped without being counted here.
   */
  unattachedLogRecords(): UnattachedLogRecords[] {
    return [...this.#unattached.values()].map((c) => ({ ...c }));
  }

  /** The open trace `traceId`, created or moved to the most recently active end. */
  #touch(traceId: string, seq: number, origin: ItemOrigin): OpenTrace {
    let t = this.#traces.get(traceId);
    if (t === undefined) {
      const waiting = this.#waiting.get(traceId);
      if (waiting !== undefined) {
        this.#waiting.delete(traceId);
        this.#waitingCount -= waiting.logs.length;
      }
      t = {
        traceId,
        spans: [],
        notes: this.#noter.start(),
        logs: waiting?.logs ?? [],
        firstSeq: seq,
        lastSeq: seq,
        origin,
        diagnostics: null,
      };
      this.#traces.set(traceId, t);
    } else if (t.lastSeq !== seq) {
      this.#traces.delete(traceId);
      this.#traces.set(traceId, t);
      t.lastSeq = seq;
    }
    return t;
  }

  /** Closes everything still open and returns the remaining trials (end of input, or before an error). */
  flush(): TrialItem[] {
    for (const t of [...this.#traces.values()]) this.#close(t);
    for (const traceId of [...this.#waiting.keys()]) this.#giveUpWaiting(traceId);
    return this.#emit([...this.#trials.values()]);
  }

  #close(t: OpenTrace): OpenTrial | null {
    this.#traces.delete(t.traceId);
    if (t.spans.length === 0) return null;
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
      const trialId = part === 1 ? trial.trialId : `${trial.trialId}#${part}`;
      const diagnostics: TrialDiagnostic[] = [];
      for (const t of traces) if (t.diagnostics !== null) diagnostics.push(...t.diagnostics);
      return buildOtlpTrialItem({
        trialId,
        taskId: trial.taskId ?? trialId,
        handle,
        origin: trial.origin,
        metadata: part === 1 ? {} : { otlp_split_trial: true, otlp_split_part: part },
        diagnostics,
      });
    });
  }
}
