import type { OtlpSpan } from '../evidence/otlp/otlp-types.js';
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

/** A trial being assembled from a stream. `version` counts how often it has been handed out for scoring. */
export interface LiveTrial {
  readonly key: string;
  readonly spans: OtlpSpan[];
  /**
   * Span identities seen, for de-duplicating re-sent spans: span id (`traceId:spanId` when the key
   * is not the trace id) → start time; an id seen with several start times maps to the set of them.
   */
  readonly seen: Map<string, bigint | Set<bigint>>;
  ended: boolean;
  lastSpanAtMs: number;
  version: number;
  /** The version whose spans are currently scored (0 = never scored). */
  scoredVersion: number;
  /** True when spans arrived after the last hand-out. */
  dirty: boolean;
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
  readonly #trials = new Map<string, LiveTrial>();
  /** Trials with spans not yet handed out: `due` looks only at these. */
  readonly #dirty = new Set<LiveTrial>();
  /** Keys of trials released by `seal`: their late spans can no longer be placed. */
  readonly #sealed = new Set<string>();

  constructor(
    private readonly config: LiveAssemblerConfig,
    private readonly keyOf: (span: OtlpSpan) => string,
  ) {}

  /** Adds spans; returns how many were new (duplicates and spans of sealed trials are not counted). */
  add(spans: Iterable<OtlpSpan>, nowMs: number): number {
    let added = 0;
    for (const span of spans) {
      const key = this.keyOf(span);
      if (this.#sealed.has(key)) continue;
      let trial = this.#trials.get(key);
      if (trial === undefined) {
        trial = {
          key,
          spans: [],
          seen: new Map(),
          ended: false,
          lastSpanAtMs: nowMs,
          version: 0,
          scoredVersion: 0,
          dirty: true,
        };
        this.#trials.set(key, trial);
      }
      const traceId = span.traceId;
      const spanKey = key === traceId ? span.spanId : `${traceId}:${span.spanId}`;
      if (!remember(trial.seen, spanKey, span.startTimeUnixNano)) continue;
      trial.spans.push(span);
      trial.lastSpanAtMs = nowMs;
      trial.dirty = true;
      this.#dirty.add(trial);
      if (isTrialEndSpan(span, this.config.endMarkerAttribute)) trial.ended = true;
      added += 1;
    }
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

  /** Whether spans of this key can no longer be placed (the trial was sealed). */
  isSealed(key: string): boolean {
    return this.#sealed.has(key);
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
      this.#sealed.add(key);
    }
  }

  #handOut(trial: LiveTrial): LiveTrial {
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
