import type { ItemOrigin, TrialItem } from '../../model/trial-item.js';
import { anyValueToJson } from './any-value-to-json.js';
import { buildOtlpTrialItem } from './build-otlp-trial-item.js';
import { OTLPTraceHandle } from './otlp-trace-handle.js';
import type { OtlpRequestItem } from './otlp-stream-types.js';
import type { OtlpAnyValue, OtlpLogRecord, OtlpResource, OtlpSpan } from './otlp-types.js';

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
  /** Per trial key, then per task key: the first value seen on the trace's spans (read as they arrive). */
  firstValues: (string | null)[];
  /** Per key as above: whether a later span carried a different value. */
  disagree: boolean[];
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

function valueOf(v: OtlpAnyValue | undefined): string | null {
  if (v === undefined) return null;
  if (v.type === 'string') {
    const s = v.value;
    return s === '' ? null : s;
  }
  const j = anyValueToJson(v);
  if (j === null || typeof j === 'object') return null;
  const s = String(j);
  return s === '' ? null : s;
}

/** A span's own value under `key` (as {@link valueOf}); a string value is read without a value object. */
function spanValueOf(span: OtlpSpan, key: string): string | null {
  const attributes = span.attributes;
  const s = attributes.getString(key);
  if (s !== undefined) return s === '' ? null : s;
  return valueOf(attributes.get(key));
}

/** Depth of each span within its trace (0 for a root; parents outside the set end the walk). */
function depths(spans: readonly OtlpSpan[]): Map<OtlpSpan, number> {
  const byId = new Map<string, OtlpSpan>();
  for (const s of spans) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  const out = new Map<OtlpSpan, number>();
  for (const s of spans) {
    let d = 0;
    let p = byId.get(s.parentSpanId);
    // bounded walk: a parent cycle cannot loop forever
    while (p !== undefined && p !== s && d < spans.length) {
      d += 1;
      p = byId.get(p.parentSpanId);
    }
    out.set(s, d);
  }
  return out;
}

/**
 * The value of the first key found in a trace's spans; when spans disagree, the one on the shallowest
 * span wins (ties: earliest start), so a sub-agent's own conversation id does not move its spans.
 */
export function resolveKey(spans: readonly OtlpSpan[], keys: readonly string[]): string | null {
  for (const key of keys) {
    // Fast scan: the first value, and whether any span disagrees with it.
    let firstValue: string | null = null;
    let disagree = false;
    const lookup = new ResourceLookup(key);
    for (const span of spans) {
      const v = spanValueOf(span, key) ?? lookup.valueOf(span.resource);
      if (v === null) continue;
      if (firstValue === null) firstValue = v;
      else if (v !== firstValue) {
        disagree = true;
        break;
      }
    }
    if (firstValue === null) continue;
    if (!disagree) return firstValue;
    // Spans disagree: the value on the shallowest span wins (ties: earliest start).
    const found: [OtlpSpan, string][] = [];
    for (const span of spans) {
      const v = spanValueOf(span, key) ?? lookup.valueOf(span.resource);
      if (v !== null) found.push([span, v]);
    }
    const depth = depths(spans);
    let best = found[0] as [OtlpSpan, string];
    for (const candidate of found) {
      const d = depth.get(candidate[0]) as number;
      const bd = depth.get(best[0]) as number;
      if (d < bd || (d === bd && candidate[0].startTimeUnixNano < best[0].startTimeUnixNano))
        best = candidate;
    }
    return best[1];
  }
  return null;
}

/**
 * A resource attribute looked up once per resource (spans of one request share one resource: the
 * last one is remembered, others go to a map).
 */
class ResourceLookup {
  readonly #key: string;
  #last: OtlpResource | null = null;
  #lastValue: string | null = null;
  #seen: Map<OtlpResource, string | null> | null = null;

  constructor(key: string) {
    this.#key = key;
  }

  valueOf(r: OtlpResource): string | null {
    if (r === this.#last) return this.#lastValue;
    this.#seen ??= new Map();
    let v = this.#seen.get(r);
    if (v === undefined) {
      v = valueOf(r.attributes.get(this.#key));
      this.#seen.set(r, v);
    }
    this.#last = r;
    this.#lastValue = v;
    return v;
  }
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
  readonly #trialKeys: readonly string[];
  readonly #taskKeys: readonly string[];
  readonly #window: number;
  readonly #maxOpenSpans: number;
  /** Open traces, least recently active first. */
  readonly #traces = new Map<string, OpenTrace>();
  readonly #trials = new Map<string, OpenTrial>();
  readonly #emitted = new Map<string, number>();
  /** Trial keys then task keys. */
  readonly #keys: readonly string[];
  readonly #resourceValues: ({ resource: OtlpResource; value: string | null } | null)[];
  #seq = 0;
  /** Spans held: in open traces and in trials not yet emitted. */
  #heldSpans = 0;

  constructor(config: OtlpGroupingConfig) {
    this.#trialKeys = config.trialKeys ?? ['gen_ai.conversation.id'];
    this.#taskKeys = config.taskKeys ?? ['nemo.test_case.name'];
    this.#window = Math.max(1, config.windowRequests ?? 256);
    this.#maxOpenSpans = Math.max(1, config.maxOpenSpans ?? 100_000);
    this.#keys = [...this.#trialKeys, ...this.#taskKeys];
    this.#resourceValues = this.#keys.map(() => null);
  }

  /**
   * Reads the trial and task keys of a span as it arrives (its bytes are still in cache then): the
   * first value per key and whether any later span disagrees, which is all `resolveKey` needs unless
   * spans disagree.
   */
  #noteKeys(t: OpenTrace, span: OtlpSpan): void {
    const keys = this.#keys;
    for (let k = 0; k < keys.length; k += 1) {
      if (t.disagree[k] === true) continue;
      const key = keys[k] as string;
      const v = spanValueOf(span, key) ?? this.#resourceValue(k, key, span.resource);
      if (v === null) continue;
      const first = t.firstValues[k];
      if (first === null || first === undefined) t.firstValues[k] = v;
      else if (v !== first) t.disagree[k] = true;
    }
  }

  /** A resource attribute, remembered for the last resource seen per key (spans of a request share it). */
  #resourceValue(k: number, key: string, r: OtlpResource): string | null {
    const last = this.#resourceValues[k];
    if (last !== null && last !== undefined && last.resource === r) return last.value;
    const value = valueOf(r.attributes.get(key));
    this.#resourceValues[k] = { resource: r, value };
    return value;
  }

  /** `resolveKey(t.spans, keys)` from the values noted as spans arrived (keys at `offset` in `#keys`). */
  #resolve(t: OpenTrace, keys: readonly string[], offset: number): string | null {
    for (let k = 0; k < keys.length; k += 1) {
      const first = t.firstValues[offset + k];
      if (first === null || first === undefined) continue;
      return t.disagree[offset + k] === true ? resolveKey(t.spans, [keys[k] as string]) : first;
    }
    return null;
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
          this.#noteKeys(last, span);
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
      const n = this.#keys.length;
      t = {
        traceId,
        spans: [],
        firstValues: new Array<string | null>(n).fill(null),
        disagree: new Array<boolean>(n).fill(false),
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
      const trialId = part === 1 ? trial.trialId : `${trial.trialId}#${part}`;
      return buildOtlpTrialItem({
        trialId,
        taskId: trial.taskId ?? trialId,
        handle,
        origin: trial.origin,
        metadata: part === 1 ? {} : { otlp_split_trial: true, otlp_split_part: part },
      });
    });
  }
}
