import type { TrialDiagnostic } from '../../model/trial-diagnostic.js';
import type { ItemOrigin, TrialItem } from '../../model/trial-item.js';
import { buildOtlpTrialItem } from './build-otlp-trial-item.js';
import type { JsonObject } from '../../model/json-value.js';
import { OTLPTraceHandle } from './otlp-trace-handle.js';
import type { OtlpRequestItem } from './otlp-stream-types.js';
import type { OtlpExportRequest, OtlpLogRecord, OtlpSpan } from './otlp-types.js';
import { KeyNoter, resolveNotedKey, type KeyNotes } from './trial-key-rule.js';
import { StringKeyIndex } from '../../util/string-key-index.js';
import { isTrialEndSpan } from './is-trial-end-span.js';
import { isValidOtlpId } from './is-valid-otlp-id.js';

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
  /**
   * The live completion policy (`serve`), used by `accept`/`due` in place of the request window: a
   * trace is complete once its end span was seen and nothing arrived for `settleMs`, or nothing
   * arrived for `idleTimeoutMs` without one.
   */
  live?: LiveCompletion;
}

/** When a live trace is complete (see {@link OtlpGroupingConfig.live}). */
export interface LiveCompletion {
  settleMs: number;
  idleTimeoutMs: number;
  /** An attribute whose presence marks a trial's last span, besides root agent spans. */
  endMarkerAttribute: string | null;
}

/** Why a live trial was handed out (again). */
export type ReadyReason = 'ended' | 'idle-timeout' | 'late-spans' | 'shutdown';

/**
 * A live trial handed out by `due` or `flushLive`: its key, version (1, 2, … per hand-out) and why.
 * `build` makes its `TrialItem` from the spans its traces hold when called (those handed out, and any
 * that arrived since): a server builds each trial as it starts scoring it, so that the trials that
 * complete together are not all built in one turn of the event loop.
 */
export interface LiveReadyTrial {
  key: string;
  build: () => TrialItem;
  version: number;
  reason: ReadyReason;
}

/** What `accept` did with a request's spans. */
export interface LiveAccepted {
  added: number;
  duplicates: number;
  /** Spans (and log records) of sealed traces, not taken. */
  late: number;
  /** Of `late`, the log records. */
  lateLogRecords: number;
}

/** Log records of one file that attach to no trial (see {@link OtlpTrialGrouper.unattachedLogRecords}). */
export interface UnattachedLogRecords {
  file: string;
  /** Records with no valid trace id (empty, all zero, wrong length): nothing to attach them by. */
  withoutTraceId: number;
  /** Records whose trace had no span in the input while they could still join it. */
  withoutSpans: number;
}

/** Spans of one file that joined no trial for an invalid id ({@link OtlpTrialGrouper.invalidIdSpans}). */
export interface InvalidIdSpans {
  file: string;
  count: number;
  /** Where the first one is: the request's line (JSON) or byte offset (protobuf). */
  first: ItemOrigin;
  /** `traceId` or `spanId`: which id of the first one is invalid. */
  field: 'traceId' | 'spanId';
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

/** A trace of the live policy: kept (with its spans) after its trial is handed out, until sealed. */
interface LiveTrace extends OpenTrace {
  lastAtMs: number;
  ended: boolean;
  /** Span id → start time(s) seen, to ignore re-sent spans. */
  seen: Map<string, bigint | Set<bigint>>;
  /** The live trial it joined at its first completion, or null before. */
  trial: LiveTrial | null;
  /**
   * What reads each request that brought it spans or log records again, in order; null once one came
   * without (its spans can then not be dropped and read back).
   */
  sources: (() => OtlpExportRequest)[] | null;
  /** True while its spans, log records and seen ids are dropped (see `release`). */
  released: boolean;
}

interface LiveTrial {
  key: string;
  trialId: string;
  taskId: string | null;
  /** In joining order; sorted by first request when handed out. */
  traces: LiveTrace[];
  version: number;
}

const LIVE_ORIGIN: ItemOrigin = { file: 'otlp-live' };

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

/** Trial ids emitted once or more, and the last part of those emitted more than once. */
interface EmittedIds {
  once: Set<string>;
  parts: StringKeyIndex;
}

function emittedIds(): EmittedIds {
  return { once: new Set(), parts: new StringKeyIndex() };
}

/** Records one more emission of `id`: its part, 1 the first time. */
function nextPart(emitted: EmittedIds, id: string): number {
  if (!emitted.once.has(id)) {
    emitted.once.add(id);
    return 1;
  }
  const part = (emitted.parts.get(id) ?? 1) + 1;
  emitted.parts.set(id, part);
  return part;
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
  /**
   * Trial ids emitted so far (the key's value or the trace id, a string the trial's records share,
   * rather than its key, a second string). Every trial of the run has an entry, so the ids are a
   * `Set` (two slots per entry where a `Map` takes three); only ids emitted again count their parts.
   */
  readonly #emitted = { key: emittedIds(), trace: emittedIds() };
  /** Notes trial keys then task keys as spans arrive. */
  readonly #noter: KeyNoter;
  /** Log records waiting for a first span of their trace, oldest trace first. */
  readonly #waiting = new Map<string, WaitingLogs>();
  #waitingCount = 0;
  readonly #maxWaitingLogs: number;
  readonly #unattached = new Map<string, UnattachedLogRecords>();
  readonly #invalidIds = new Map<string, InvalidIdSpans>();
  #seq = 0;
  /** Spans held: in open traces and in trials not yet emitted. */
  #heldSpans = 0;
  readonly #live: LiveCompletion | null;
  /** Live traces by trace id: open, or kept with their trial until it is sealed. */
  readonly #liveTraces = new Map<string, LiveTrace>();
  /** Live traces with spans or log records not yet handed out. */
  readonly #liveDirty = new Set<LiveTrace>();
  readonly #liveTrials = new Map<string, LiveTrial>();
  #liveUnattached = 0;
  /** Trace ids of sealed live trials (one per trace of the run). */
  readonly #sealed = new StringKeyIndex();

  constructor(config: OtlpGroupingConfig) {
    this.#trialKeys = config.trialKeys ?? ['gen_ai.conversation.id'];
    this.#taskKeys = config.taskKeys ?? ['nemo.test_case.name'];
    this.#window = Math.max(1, config.windowRequests ?? OtlpTrialGrouper.defaultWindowRequests);
    this.#maxOpenSpans = Math.max(1, config.maxOpenSpans ?? OtlpTrialGrouper.defaultMaxOpenSpans);
    this.#maxWaitingLogs = Math.max(0, config.maxWaitingLogRecords ?? 100_000);
    this.#noter = new KeyNoter([...this.#trialKeys, ...this.#taskKeys]);
    this.#live = config.live ?? null;
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
          if (last === null || last.traceId !== traceId) {
            if (!isValidOtlpId(traceId, 16)) {
              this.#invalidId(item.file, origin, 'traceId');
              continue;
            }
            last = this.#touch(traceId, seq, origin);
          }
          if (!isValidOtlpId(span.spanId, 8)) {
            this.#invalidId(item.file, origin, 'spanId');
            continue;
          }
          // noted first: a span whose key attributes do not decode is not taken
          this.#noter.note(last.notes, span);
          last.spans.push(span);
          this.#heldSpans += 1;
        }
      }
    }
    for (const log of item.request.logRecords) this.#placeLog(log, item.file, seq, origin);
    for (const issue of item.request.issues ?? []) {
      // an issue of a span left out for its id goes with it (the span is counted there)
      if (!isValidOtlpId(issue.traceId, 16)) continue;
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
    if (!isValidOtlpId(traceId, 16)) {
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

  /** Counts a span left out of every trial because its trace or span id is invalid. */
  #invalidId(file: string, origin: ItemOrigin, field: 'traceId' | 'spanId'): void {
    const known = this.#invalidIds.get(file);
    if (known === undefined) this.#invalidIds.set(file, { file, count: 1, first: origin, field });
    else known.count += 1;
  }

  /**
   * The spans left out of every trial so far because their trace id or span id is invalid in OTLP
   * (empty, all zero, not 16 / 8 bytes), per file in order of the first such span: `serve` refuses
   * them too. Never dropped without being counted here.
   */
  invalidIdSpans(): InvalidIdSpans[] {
    return [...this.#invalidIds.values()].map((c) => ({ ...c }));
  }

  /**
   * The log records that attach to no trial so far, per file in order of first such record: without
   * a trace id, or (once `flush` ran, or past `maxWaitingLogRecords`) whose trace had no span while
   * they could join it. Records are never dropped without being counted here.
   */
  unattachedLogRecords(): UnattachedLogRecords[] {
    return [...this.#unattached.values()].map((c) => ({ ...c }));
  }

  #newTrace(traceId: string, seq: number, origin: ItemOrigin): OpenTrace {
    return {
      traceId,
      spans: [],
      notes: this.#noter.start(),
      logs: [],
      firstSeq: seq,
      lastSeq: seq,
      origin,
      diagnostics: null,
    };
  }

  /** The open trace `traceId`, created or moved to the most recently active end. */
  #touch(traceId: string, seq: number, origin: ItemOrigin): OpenTrace {
    let t = this.#traces.get(traceId);
    if (t === undefined) {
      const waiting = this.#waiting.get(traceId);
      t = this.#newTrace(traceId, seq, origin);
      if (waiting !== undefined) {
        this.#waiting.delete(traceId);
        this.#waitingCount -= waiting.logs.length;
        t.logs = waiting.logs;
      }
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
      const emitted = trial.key.startsWith('key\u0000') ? this.#emitted.key : this.#emitted.trace;
      const part = nextPart(emitted, trial.trialId);
      const trialId = part === 1 ? trial.trialId : `${trial.trialId}#${part}`;
      return buildTrial(
        trialId,
        trial.taskId ?? trialId,
        trial.traces,
        trial.origin,
        part === 1 ? {} : { otlp_split_trial: true, otlp_split_part: part },
      );
    });
  }
  /**
   * Live policy: adds one decoded request at `nowMs` (spans re-sent with the same span id and start
   * time are ignored; spans and log records of sealed traces are refused). Trials are handed out by
   * {@link due}, not here.
   */
  accept(request: OtlpExportRequest, nowMs: number, reload?: () => OtlpExportRequest): LiveAccepted {
    const live = this.#liveOnly();
    this.#seq += 1;
    const seq = this.#seq;
    const counts: LiveAccepted = { added: 0, duplicates: 0, late: 0, lateLogRecords: 0 };
    const revived: LiveTrace[] = [];
    const open = (traceId: string): LiveTrace | null => {
      const t = this.#liveTrace(traceId, seq);
      if (t === null) return null;
      if (t.released) {
        this.#revive(t);
        revived.push(t);
      }
      if (reload === undefined) t.sources = null;
      else if (t.sources !== null && t.sources[t.sources.length - 1] !== reload) t.sources.push(reload);
      return t;
    };
    // consecutive spans mostly belong to the same trace: its state is looked up once
    let lastId: string | null = null;
    let last: LiveTrace | null = null;
    for (const rs of request.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          if (span.traceId !== lastId) {
            lastId = span.traceId;
            last = open(lastId);
          }
          if (last === null) counts.late += 1;
          else if (!remember(last.seen, span.spanId, span.startTimeUnixNano)) counts.duplicates += 1;
          else {
            last.spans.push(span);
            this.#noter.note(last.notes, span);
            if (isTrialEndSpan(span, live.endMarkerAttribute)) last.ended = true;
            this.#touchLive(last, seq, nowMs);
            counts.added += 1;
          }
        }
      }
    }
    for (const log of request.logRecords) {
      if (log.traceId === '') continue;
      const t = open(log.traceId);
      if (t === null) {
        counts.late += 1;
        counts.lateLogRecords += 1;
      } else {
        t.logs.push(log);
        this.#touchLive(t, seq, nowMs);
      }
    }
    // a dropped trace that got only re-sent duplicates drops its spans again
    for (const t of revived) if (!this.#liveDirty.has(t)) this.#drop(t);
    return counts;
  }

  /**
   * Live policy: drops the spans, log records and seen ids of a handed-out trial's traces whose
   * every request can be read again (the `reload` given to `accept`): they stay in the requests'
   * bytes, off the JavaScript heap, and are read back when the trial gets spans again or is handed
   * out again. A trace with content not yet handed out keeps it.
   */
  release(key: string): void {
    const trial = this.#liveTrials.get(key);
    if (trial !== undefined) for (const t of trial.traces) if (!this.#liveDirty.has(t)) this.#drop(t);
  }

  #drop(t: LiveTrace): void {
    if (t.sources === null || t.released) return;
    t.spans = [];
    t.logs = [];
    t.seen = new Map();
    t.released = true;
  }

  /** Reads a dropped trace back from its requests, as it was accepted (duplicates ignored again). */
  #revive(t: LiveTrace): void {
    t.released = false;
    t.notes = this.#noter.start();
    for (const source of t.sources ?? []) {
      const request = source();
      for (const rs of request.resourceSpans) {
        for (const ss of rs.scopeSpans) {
          for (const span of ss.spans) {
            if (span.traceId !== t.traceId || !remember(t.seen, span.spanId, span.startTimeUnixNano))
              continue;
            t.spans.push(span);
            this.#noter.note(t.notes, span);
          }
        }
      }
      for (const log of request.logRecords) if (log.traceId === t.traceId) t.logs.push(log);
    }
  }

  /** Live policy: whether spans of this trace are refused (its trial was sealed). */
  isSealed(traceId: string): boolean {
    return this.#sealed.has(traceId);
  }

  /**
   * Live policy: the trials complete at `nowMs`. A trace is complete once its end span was seen and
   * nothing arrived for `settleMs`, or nothing arrived for `idleTimeoutMs`; it then joins its trial
   * (by the trial keys, as from files) and the trial is handed out with every trace it has so far.
   * Spans arriving for a trial already handed out re-open it: it is handed out again (a new version,
   * reason `late-spans`) once it completes again.
   */
  due(nowMs: number): LiveReadyTrial[] {
    const live = this.#liveOnly();
    const ready = new Map<LiveTrial, ReadyReason>();
    for (const t of this.#liveDirty) {
      const quiet = nowMs - t.lastAtMs;
      if (quiet < (t.ended ? live.settleMs : live.idleTimeoutMs)) continue;
      this.#completeLive(t, t.ended ? 'ended' : 'idle-timeout', ready);
    }
    return this.#handOut(ready);
  }

  /** Live policy: every trial with spans not yet handed out, whatever its timers (at shutdown). */
  flushLive(): LiveReadyTrial[] {
    const ready = new Map<LiveTrial, ReadyReason>();
    for (const t of this.#liveDirty) this.#completeLive(t, 'shutdown', ready);
    return this.#handOut(ready);
  }

  /**
   * Live policy: log records let go so far because no span of their trace came before it completed
   * (within the idle timeout, or by `flushLive`).
   */
  get unattachedLiveLogRecords(): number {
    return this.#liveUnattached;
  }

  /** Live policy: traces with spans not yet handed out. */
  get openCount(): number {
    return this.#liveDirty.size;
  }

  /**
   * Live policy: forgets a handed-out trial and its spans; later spans of its traces are refused
   * ({@link isSealed}). A trial with spans not yet handed out is kept; returns whether it was sealed.
   */
  seal(key: string): boolean {
    const trial = this.#liveTrials.get(key);
    if (trial === undefined) return true;
    for (const t of trial.traces) if (this.#liveDirty.has(t)) return false;
    this.#liveTrials.delete(key);
    for (const t of trial.traces) {
      this.#liveTraces.delete(t.traceId);
      this.#sealed.set(t.traceId, 0);
    }
    return true;
  }

  /** Live policy: forgets every trace, trial and sealed id (at shutdown). */
  clearLive(): void {
    this.#liveTraces.clear();
    this.#liveDirty.clear();
    this.#liveTrials.clear();
    this.#sealed.clear();
  }

  #liveOnly(): LiveCompletion {
    if (this.#live === null) throw new Error('OtlpTrialGrouper: the live methods need the `live` policy');
    return this.#live;
  }

  /** The live trace `traceId` (created when new), or null when it was sealed. */
  #liveTrace(traceId: string, seq: number): LiveTrace | null {
    const known = this.#liveTraces.get(traceId);
    if (known !== undefined) return known;
    if (this.#sealed.has(traceId)) return null;
    const t: LiveTrace = Object.assign(this.#newTrace(traceId, seq, LIVE_ORIGIN), {
      lastAtMs: 0,
      ended: false,
      seen: new Map<string, bigint | Set<bigint>>(),
      trial: null,
      sources: [],
      released: false,
    });
    this.#liveTraces.set(traceId, t);
    return t;
  }

  #touchLive(t: LiveTrace, seq: number, nowMs: number): void {
    t.lastSeq = seq;
    t.lastAtMs = nowMs;
    this.#liveDirty.add(t);
  }

  /** A complete live trace joins its trial (at its first completion), which becomes ready. */
  #completeLive(t: LiveTrace, reason: ReadyReason, ready: Map<LiveTrial, ReadyReason>): void {
    this.#liveDirty.delete(t);
    let trial = t.trial;
    if (trial === null) {
      if (t.spans.length === 0) {
        // log records of a trace with no spans cannot be placed
        this.#liveUnattached += t.logs.length;
        this.#liveTraces.delete(t.traceId);
        return;
      }
      const trialValue = this.#resolve(t, this.#trialKeys, 0);
      const key = trialValue === null ? `trace\u0000${t.traceId}` : `key\u0000${trialValue}`;
      trial = this.#liveTrials.get(key) ?? null;
      if (trial === null) {
        trial = { key, trialId: trialValue ?? t.traceId, taskId: null, traces: [], version: 0 };
        this.#liveTrials.set(key, trial);
      }
      trial.taskId ??= this.#resolve(t, this.#taskKeys, this.#trialKeys.length);
      trial.traces.push(t);
      t.trial = trial;
    }
    const why: ReadyReason = trial.version > 0 && reason !== 'shutdown' ? 'late-spans' : reason;
    const before = ready.get(trial);
    ready.set(trial, before === undefined ? why : worstReason(before, why));
  }

  #handOut(ready: Map<LiveTrial, ReadyReason>): LiveReadyTrial[] {
    const out: LiveReadyTrial[] = [];
    for (const [trial, reason] of ready) {
      trial.version += 1;
      out.push({ key: trial.key, build: () => this.#buildLive(trial), version: trial.version, reason });
    }
    return out;
  }

  /** A live trial's `TrialItem` from what its traces hold now (dropped traces read back first). */
  #buildLive(trial: LiveTrial): TrialItem {
    for (const t of trial.traces) if (t.released) this.#revive(t);
    // a task key may come with a trace's later spans
    for (const t of trial.traces) trial.taskId ??= this.#resolve(t, this.#taskKeys, this.#trialKeys.length);
    return buildTrial(trial.trialId, trial.taskId ?? trial.trialId, trial.traces, LIVE_ORIGIN, {});
  }
}

/** One trial's `TrialItem` from its traces (in order of their first request): spans, then log records. */
function buildTrial(
  trialId: string,
  taskId: string,
  traces: readonly OpenTrace[],
  origin: ItemOrigin,
  metadata: JsonObject,
): TrialItem {
  const { handle, diagnostics } = traceContent(traces);
  return buildOtlpTrialItem({ trialId, taskId, handle, origin, metadata, diagnostics });
}

/** The spans and log records of a trial's traces (in order of their first request), and their diagnostics. */
function traceContent(traces: readonly OpenTrace[]): {
  handle: OTLPTraceHandle;
  diagnostics: TrialDiagnostic[];
} {
  const ordered = traces.length > 1 ? [...traces].sort(byFirstSeq) : traces;
  const diagnostics: TrialDiagnostic[] = [];
  for (const t of ordered) if (t.diagnostics !== null) diagnostics.push(...t.diagnostics);
  const handle =
    ordered.length === 1
      ? OTLPTraceHandle.fromSpans((ordered[0] as OpenTrace).spans, (ordered[0] as OpenTrace).logs)
      : OTLPTraceHandle.fromSpans(
          ordered.flatMap((t) => t.spans),
          ordered.flatMap((t) => t.logs),
        );
  return { handle, diagnostics };
}

const REASON_RANK: Record<ReadyReason, number> = {
  ended: 0,
  'late-spans': 1,
  'idle-timeout': 2,
  shutdown: 3,
};

function worstReason(a: ReadyReason, b: ReadyReason): ReadyReason {
  return REASON_RANK[a] >= REASON_RANK[b] ? a : b;
}

/** Records (span id, start); false when it was already there (a re-sent duplicate). */
function remember(seen: Map<string, bigint | Set<bigint>>, spanId: string, start: bigint): boolean {
  const known = seen.get(spanId);
  if (known === undefined) {
    seen.set(spanId, start);
    return true;
  }
  if (typeof known === 'bigint') {
    if (known === start) return false;
    seen.set(spanId, new Set([known, start]));
    return true;
  }
  if (known.has(start)) return false;
  known.add(start);
  return true;
}
