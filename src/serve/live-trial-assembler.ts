import type { OtlpSpan } from '../evidence/otlp/otlp-types.js';
import { KeyNoter, type KeyNotes } from '../evidence/otlp/trial-key-rule.js';
import { StringKeyIndex } from '../util/string-key-index.js';
import { isTrialEndSpan } from './is-trial-end-span.js';

/** Configuration of trial completion in a live stream. */
export interface LiveAssemblerConfig {
  /** Quiet time after the end marker before a trial is scored. */
  settleMs: number;
  /** Quiet time after which a trial without an end marker is scored anyway (with a diagnostic). */
  idleTimeoutMs: number;
  /** An attribute whose presence marks a trial's last span, besides root agent spans. */
  endMarkerAttribute: string | null;
}

/**
 * Reads again the spans of one accepted batch (re-decoding its request body): a released trial's
 * spans are read back from its batches when it is needed again. It must return the batch's accepted
 * spans in the same order as when they were added.
 */
export type SpanSource = () => Iterable<OtlpSpan>;

/** A trial being assembled from a stream. `version` counts how often it has been handed out for scoring. */
export interface LiveTrial {
  readonly key: string;
  /**
   * The trial's distinct spans in arrival order. A trial released after scoring (`release`) holds
   * none; reading this reads them back from its batches' sources.
   */
  readonly spans: OtlpSpan[];
  ended: boolean;
  lastSpanAtMs: number;
  version: number;
  /** The version whose spans are currently scored (0 = never scored). */
  scoredVersion: number;
  /** True when spans arrived after the last hand-out. */
  dirty: boolean;
  /**
   * The assembler's `noteKeys` noted over {@link spans} in order, as they arrived (a released trial
   * drops them with its spans; reading this reads the spans back and notes them again).
   */
  readonly notes: KeyNotes;
  /**
   * The trial key its owner filed this trace under when it first completed (null before): kept on
   * the trace, so that a retained trace needs no map entry of its own for it.
   */
  trialKey: string | null;
}

/** A trial's sources before its first one (shared, never written to). */
const NO_SOURCES: SpanSource[] = [];

/** The assembler's trial: spans and de-duplication state, which a released trial drops. */
class AssembledTrial implements LiveTrial {
  ended = false;
  version = 0;
  scoredVersion = 0;
  dirty = true;
  trialKey: string | null = null;
  /** The spans, or null while released. */
  #spans: OtlpSpan[] | null = [];
  /** The noted keys over `#spans`, or null while released. */
  #notes: KeyNotes | null;
  /**
   * Span identities seen, for de-duplicating re-sent spans: span id (`traceId:spanId` when the key
   * is not the trace id) → start time; an id seen with several start times maps to the set of them.
   * Null while released.
   */
  #seen: Map<string, bigint | Set<bigint>> | null = new Map();
  /**
   * The batches that added spans, in order (each retained through the lifecycle while listed). Made
   * with its first source: an empty array's first push reserves 17 slots, ~150 bytes per retained
   * trial, most of which hold one source.
   */
  #sources: SpanSource[] = NO_SOURCES;
  /** False once a span came without a source: the spans cannot all be read back (never released). */
  #readable = true;

  constructor(
    readonly key: string,
    public lastSpanAtMs: number,
    private readonly keyOf: (span: OtlpSpan) => string,
    private readonly lifecycle: SourceLifecycle | null,
    private readonly noter: KeyNoter,
  ) {
    this.#notes = noter.start();
  }

  get spans(): OtlpSpan[] {
    if (this.#spans === null) this.#revive();
    return this.#spans!;
  }

  get notes(): KeyNotes {
    if (this.#notes === null) this.#revive();
    return this.#notes!;
  }

  get released(): boolean {
    return this.#spans === null;
  }

  /** Adds a span unless it is a duplicate (a released trial reads its spans back first); true when added. */
  add(span: OtlpSpan, source: SpanSource | null): boolean {
    if (this.#seen === null) this.#revive();
    if (!this.#remember(span)) return false;
    this.#spans!.push(span);
    this.noter.note(this.#notes!, span);
    const sources = this.#sources;
    if (source === null) this.#readable = false;
    else if (sources[sources.length - 1] !== source) {
      if (sources === NO_SOURCES) this.#sources = [source];
      else sources.push(source);
      this.lifecycle?.retain(source);
      this.lifecycle?.viewsOn(source); // the trial holds spans decoded from it
    }
    return true;
  }

  /** Drops the spans (kept in the batches' bodies) when every span can be read back. */
  release(): boolean {
    if (!this.#readable || this.#spans === null || this.dirty) return false;
    this.#spans = null;
    this.#seen = null;
    this.#notes = null;
    if (this.lifecycle !== null) for (const source of this.#sources) this.lifecycle.viewsOff(source);
    return true;
  }

  #remember(span: OtlpSpan): boolean {
    const traceId = span.traceId;
    const spanKey = this.key === traceId ? span.spanId : `${traceId}:${span.spanId}`;
    return remember(this.#seen!, spanKey, span.startTimeUnixNano);
  }

  /** Reads the spans back from the sources, with the same de-duplication (and notes) as when they arrived. */
  #revive(): void {
    const spans: OtlpSpan[] = [];
    const notes = this.noter.start();
    this.#spans = spans;
    this.#seen = new Map();
    this.#notes = notes;
    if (this.lifecycle !== null) for (const source of this.#sources) this.lifecycle.viewsOn(source);
    for (const source of this.#sources) {
      for (const span of source()) {
        if (this.keyOf(span) === this.key && this.#remember(span)) {
          spans.push(span);
          this.noter.note(notes, span);
        }
      }
    }
  }

  /** The trial is forgotten: its batches are no longer needed for it. */
  dispose(): void {
    const lifecycle = this.lifecycle;
    if (lifecycle !== null) {
      for (const source of this.#sources) {
        if (this.#spans !== null) lifecycle.viewsOff(source);
        lifecycle.release(source);
      }
    }
    this.#sources = NO_SOURCES;
  }
}

/**
 * Told when a trial starts and stops needing a batch's source (once per trial and batch), so that
 * the owner of the batches' bodies can free a body once no trial needs it. A trial needs its sources
 * from its first span of that batch until it is sealed or the assembler is cleared. `viewsOn` and
 * `viewsOff` say when the trial starts and stops holding spans decoded from the source (they may
 * read the body in place: it must not move meanwhile): from its first span of the batch until its
 * spans are released, again from a read-back until the next release, and until it is disposed.
 */
export interface SourceLifecycle {
  retain(source: SpanSource): void;
  release(source: SpanSource): void;
  viewsOn(source: SpanSource): void;
  viewsOff(source: SpanSource): void;
}

/** Why a trial was handed out for scoring. */
export type ReadyReason = 'ended' | 'idle-timeout' | 'late-spans' | 'shutdown';

/**
 * Groups streamed spans into trials and decides when each is complete: its end span has been seen
 * and nothing arrived for `settleMs`, or nothing arrived for `idleTimeoutMs` without an end span.
 * Spans arriving for a trial already handed out make it dirty; it is handed out again (a new
 * version) once it settles. Duplicate spans (same trace id, span id and start time) are ignored.
 * Time is injected (`nowMs`), so tests are deterministic.
 *
 * @example
 * const asm = new LiveTrialAssembler(cfg, keyOf);
 * asm.add(spans, Date.now());
 * for (const [trial, reason] of asm.due(Date.now())) score(trial, reason);
 */
export class LiveTrialAssembler {
  readonly #trials = new Map<string, AssembledTrial>();
  /** Trials with spans not yet handed out: `due` looks only at these. */
  readonly #dirty = new Set<AssembledTrial>();
  /**
   * Keys of trials released by `seal`: their late spans can no longer be placed (one per trace of
   * the run: kept as code units off the heap).
   */
  readonly #sealed = new StringKeyIndex();
  readonly #noter: KeyNoter;

  /**
   * `noteKeys`: attributes whose values each trial notes as its spans arrive ({@link LiveTrial.notes},
   * for `resolveNotedKey`).
   */
  constructor(
    private readonly config: LiveAssemblerConfig,
    private readonly keyOf: (span: OtlpSpan) => string,
    private readonly lifecycle: SourceLifecycle | null = null,
    noteKeys: readonly string[] = [],
  ) {
    this.#noter = new KeyNoter(noteKeys);
  }

  /**
   * Adds spans; returns how many were new (duplicates and spans of sealed trials are not counted).
   * `source` reads the same spans again later (see `release`); without it the trials keep their spans.
   */
  add(spans: Iterable<OtlpSpan>, nowMs: number, source: SpanSource | null = null): number {
    let added = 0;
    let revived: AssembledTrial[] | null = null;
    // a trace's spans mostly come one after another: the last span's trial is looked up once
    let lastKey: string | null = null;
    let last: AssembledTrial | null = null;
    for (const span of spans) {
      const key = this.keyOf(span);
      let trial: AssembledTrial | undefined;
      if (key === lastKey) {
        if (last === null) continue; // sealed
        trial = last;
      } else {
        lastKey = key;
        last = null;
        if (this.#sealed.has(key)) continue;
        trial = this.#trials.get(key);
        if (trial === undefined) {
          trial = new AssembledTrial(key, nowMs, this.keyOf, this.lifecycle, this.#noter);
          this.#trials.set(key, trial);
        } else if (trial.released) (revived ??= []).push(trial);
        last = trial;
      }
      if (!trial.add(span, source)) continue;
      trial.lastSpanAtMs = nowMs;
      trial.dirty = true;
      this.#dirty.add(trial);
      if (isTrialEndSpan(span, this.config.endMarkerAttribute)) trial.ended = true;
      added += 1;
    }
    // a released trial that got only re-sent duplicates drops its spans again
    if (revived !== null) for (const trial of revived) trial.release();
    return added;
  }

  /** Trials due for (re-)scoring at `nowMs`, each with its reason; their version is bumped. */
  due(nowMs: number): [LiveTrial, ReadyReason][] {
    const ready: [LiveTrial, ReadyReason][] = [];
    for (const trial of this.#dirty) {
      const quiet = nowMs - trial.lastSpanAtMs;
      let reason: ReadyReason | null = null;
      if (trial.ended && quiet >= this.config.settleMs) reason = trial.version > 0 ? 'late-spans' : 'ended';
      else if (!trial.ended && quiet >= this.config.idleTimeoutMs)
        reason = trial.version > 0 ? 'late-spans' : 'idle-timeout';
      if (reason !== null) ready.push([this.#handOut(trial), reason]);
    }
    return ready;
  }

  /** Every trial with unscored spans, whatever its timers (used at shutdown). */
  flush(): [LiveTrial, ReadyReason][] {
    const ready: [LiveTrial, ReadyReason][] = [];
    for (const trial of this.#dirty) ready.push([this.#handOut(trial), 'shutdown']);
    return ready;
  }

  /** Number of trials not yet handed out in their current state. */
  get openCount(): number {
    return this.#dirty.size;
  }

  get size(): number {
    return this.#trials.size;
  }

  /** The trial of `key` while it is held (not sealed, not cleared), else undefined. */
  trial(key: string): LiveTrial | undefined {
    return this.#trials.get(key);
  }

  /** Whether spans of this key can no longer be placed (the trial was sealed). */
  isSealed(key: string): boolean {
    return this.#sealed.has(key);
  }

  /**
   * Drops the spans of a handed-out trial whose spans all came with a source (they stay in their
   * requests' bodies, outside the JavaScript heap, so a retained trial costs the garbage collector
   * almost nothing); they are read back when the trial gets spans again or `spans` is read. A
   * trial with spans not yet handed out keeps them. Returns whether the spans were dropped.
   */
  release(trial: LiveTrial): boolean {
    return trial instanceof AssembledTrial && trial.release();
  }

  /** Number of trials whose spans are currently released. */
  get releasedCount(): number {
    let n = 0;
    for (const trial of this.#trials.values()) if (trial.released) n += 1;
    return n;
  }

  /**
   * Releases handed-out trials (their spans become garbage): later spans with their key are refused
   * (`isSealed`). Trials with spans not yet handed out are kept.
   */
  seal(keys: Iterable<string>): void {
    for (const key of keys) {
      const trial = this.#trials.get(key);
      if (trial === undefined || trial.dirty) continue;
      this.#trials.delete(key);
      trial.dispose();
      this.#sealed.set(key, 0);
    }
  }

  /** Forgets every trial, its spans and sources, and the sealed keys (at shutdown). */
  clear(): void {
    for (const trial of this.#trials.values()) trial.dispose();
    this.#trials.clear();
    this.#dirty.clear();
    this.#sealed.clear();
  }

  #handOut(trial: AssembledTrial): LiveTrial {
    this.#dirty.delete(trial);
    trial.dirty = false;
    trial.version += 1;
    return trial;
  }
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
