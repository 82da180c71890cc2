import type { OtlpLogRecord, OtlpResourceSpans, OtlpSpan } from '../evidence/otlp/otlp-types.js';
import { buildOtlpTrialItem } from '../evidence/otlp/build-otlp-trial-item.js';
import { OTLPTraceHandle } from '../evidence/otlp/otlp-trace-handle.js';
import { resolveNotedKey } from '../evidence/otlp/trial-key-rule.js';
import { scoreTrial } from '../metrics/score-trial.js';
import type { Diagnostic, ScoreRecord } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { AgentOutput } from '../model/trial.js';
import type { TrialItem } from '../model/trial-item.js';
import type { TrialPlan } from '../pipeline/trial-plan.js';
import type { Sink } from '../sinks/sink.js';
import { SummaryBuilder } from '../summary/summary-builder.js';
import { StringKeyIndex } from '../util/string-key-index.js';
import type { ExportOutcome } from './export-response.js';
import {
  LiveTrialAssembler,
  type LiveAssemblerConfig,
  type LiveTrial,
  type ReadyReason,
  type SpanSource,
} from './live-trial-assembler.js';
import type { RetainedBody } from './body-arena.js';
import { CapacityWaiters } from './capacity-waiters.js';
import { KeptTrials } from './kept-trials.js';
import { LiveIntervals, type LiveIntervalsJson } from './live-intervals.js';
import type { ExportHandler, LiveReadApi, Saturated } from './serve-types.js';
import { ServeMetrics } from './serve-metrics.js';
import { tooDeepAttribute } from './too-deep-attribute.js';

/** Configuration of the live engine (validated by the `serve` command). */
export interface LiveEngineConfig {
  runId: string;
  completion: LiveAssemblerConfig;
  /** Trial and task key attributes, as for the file source. */
  trialKeys: readonly string[];
  taskKeys: readonly string[];
  /** Most spans accepted but not yet assembled; past it exports are throttled. */
  maxQueuedSpans: number;
  /** Most trials waiting to be scored and stored; past it exports are throttled. */
  maxPendingTrials: number;
  /** Trials scored at once. */
  concurrency: number;
  /** Per-metric time limit (ms), 0 = none. */
  metricTimeoutMs: number;
  retryAfterSec: number;
  /** How often completion timers are checked (ms). */
  tickMs: number;
  /**
   * How long a scored trial keeps its spans for late arrivals (ms). After that it is sealed: its
   * spans are released (memory stays bounded) and later spans for it are refused as partial success.
   */
  retainMs: number;
  /**
   * Most scored trials retained at once; past it the ones scored longest ago are sealed early, so
   * memory stays bounded at high rates (each retained trial keeps its requests' bodies). Default
   * unlimited (only `retainMs` applies).
   */
  retainMaxTrials?: number | undefined;
  /**
   * Told once per problem that makes the run's outputs incomplete (a sink failed; a trial could not be
   * scored), as it happens: the receivers go on, and the problem is reported by `/healthz`.
   */
  onProblem?: ((message: string) => void) | undefined;
  /**
   * `--stop-when-width`: the live summary says when every output's confidence sequence is narrower
   * than this (null or absent: no stop width).
   */
  stopWhenWidth?: number | null | undefined;
}

interface ScoringJob {
  key: string;
  traces: LiveTrial[];
  reason: ReadyReason;
  readyAtMs: number;
}

const EMPTY_OUTCOME: ExportOutcome = { rejectedSpans: 0, errorMessage: '' };
/**
 * Longest stretch (ms) of one event-loop turn spent starting scorings before receiving again. A large
 * export arrives in ~64 kB reads, one per turn, so shorter slices answer it sooner.
 */
const SCORING_SLICE_MS = 4;

/**
 * The live scoring engine behind `evalstream serve`: takes decoded spans from the receivers
 * (`accept`, never blocking, throttling when its bounded queues are full), assembles traces with
 * `LiveTrialAssembler`, joins traces into trials by the file source's keys, scores each completed
 * trial with the pipeline's planner, keeps the latest version of every trial (late spans re-score it
 * and the new scores replace the old ones everywhere), writes each version to the sinks (whose
 * rows are replaced by run id + trial id + metric type), and serves the live summary and events.
 *
 * @example
 * const engine = new LiveEngine(config, planner, [duckdbSink], Date.now);
 * engine.start(); // timers
 * await engine.shutdown(); // scores what is complete, flushes open trials
 * for (const trial of engine.eachFinalTrial()) write(trial); // every trial once, one at a time
 */
export class LiveEngine implements ExportHandler, LiveReadApi {
  readonly metrics = new ServeMetrics();
  readonly #assembler: LiveTrialAssembler;
  readonly #queue: { spans: OtlpSpan[]; source: SpanSource | null }[] = [];
  /**
   * The body behind each source that came with one (`accept`'s `body`). The holders (the queue
   * entry until assembled, then each trial with spans from it) retain and release the body itself;
   * an entry goes with its source.
   */
  readonly #bodies = new WeakMap<SpanSource, RetainedBody>();
  /**
   * Scorings under way per trial key (a re-scoring can start before the last one ended): such a
   * trial is not sealed meanwhile, as its spans may read from their bodies.
   */
  readonly #scoring = new Map<string, number>();
  #queuedSpans = 0;
  /**
   * The traces of each trial, by trial key: the trace itself for a one-trace trial (the usual case:
   * no map per retained trial), a map by trace id (in joining order) once a second trace joins. Each
   * trace knows its own trial key (`LiveTrial.trialKey`).
   */
  readonly #tracesByKey = new Map<string, LiveTrial | Map<string, LiveTrial>>();
  /** Every scored trial's latest version, packed (the live state that grows with the run). */
  readonly #kept = new KeptTrials();
  /**
   * Slot in `#kept` by trial key, and by trial id (one key each per trial scored, kept for the run:
   * their keys as code units off the heap).
   */
  readonly #results = new StringKeyIndex();
  readonly #resultsByTrialId = new StringKeyIndex();
  /** Scored trials by last scoring time, oldest first (for sealing). */
  readonly #scoredAt = new Map<string, number>();
  /** Trials waiting for scoring, by trial key, oldest first (a key is queued at most once). */
  readonly #jobs = new Map<string, ScoringJob>();
  #running = 0;
  readonly #listeners = new Set<(event: { type: string; data: unknown }) => void>();
  #timer: NodeJS.Timeout | null = null;
  #drainScheduled = false;
  #pumpScheduled = false;
  /** When the current scoring slice began (`performance.now()`). */
  #sliceStart = 0;
  #idleWaiters: (() => void)[] = [];
  /** Requests waiting for room in the queues (`waitForCapacity`), oldest first. */
  readonly #capacityWaiters = new CapacityWaiters();
  #summaryCache: Summary | null = null;
  #lightSummaryCache: Summary | null = null;
  /**
   * The live summary's builder, fed each newly scored trial once a summary was asked for (null
   * before, and after a re-scoring, which replaces scores a builder cannot take back: the next read
   * rebuilds it from the kept trials).
   */
  #summaryBuilder: SummaryBuilder | null = null;
  /** Each output's values for the live intervals; stale after a re-scoring (rebuilt on the next read). */
  readonly #intervals = new LiveIntervals(0.05);
  #intervalsStale = false;
  #intervalsCache: LiveIntervalsJson | null = null;
  /** Sinks that failed: written to no more (the others, the live state and the bundle go on). */
  readonly #failedSinks = new Set<Sink<ScoredTrial>>();
  /** What went wrong so far, in order (first of each kind), and how many trials could not be scored. */
  readonly #problems: string[] = [];
  #unscoredTrials = 0;
  /**
   * Log records by trace id (`acceptLogs`), oldest trace first, with when the first came: a trial
   * takes its traces' records each time it is scored; they go when the trace is sealed, or, when no
   * span of the trace came within `idleTimeoutMs` of them, are counted as attached to no trial.
   */
  readonly #logs = new Map<string, { records: OtlpLogRecord[]; sinceMs: number }>();
  #logRecordsHeld = 0;

  constructor(
    private readonly config: LiveEngineConfig,
    private readonly planner: (item: TrialItem) => TrialPlan,
    private readonly sinks: readonly Sink<ScoredTrial>[],
    private readonly nowMs: () => number = Date.now,
  ) {
    this.#assembler = new LiveTrialAssembler(
      config.completion,
      (span) => span.traceId,
      {
        retain: (source) => this.#bodies.get(source)?.retain(),
        release: (source) => this.#bodies.get(source)?.release(),
        viewsOn: (source) => this.#bodies.get(source)?.addView(),
        viewsOff: (source) => this.#bodies.get(source)?.dropView(),
      },
      [...config.trialKeys, ...config.taskKeys],
    );
  }

  /** Starts the completion timer. */
  start(): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => this.tick(), this.config.tickMs);
    this.#timer.unref();
  }

  /**
   * Accepts one export's spans, or answers `Saturated` when the queues are full (nothing is taken
   * then). `reload` decodes the same request again: with it, a scored trial's spans are dropped from
   * the heap until they are needed again (late spans), which keeps the garbage collector's work
   * small while trials are retained; without it they stay in memory until the trial is sealed.
   * `body`, the request body `reload` (and the decoded spans) read from, is retained for as long as
   * a queue entry or a trial needs it, and released after (see {@link BodyArena}).
   */
  accept(
    resourceSpans: readonly OtlpResourceSpans[],
    reload?: () => readonly OtlpResourceSpans[],
    body?: RetainedBody,
  ): ExportOutcome | Saturated {
    const spans: OtlpSpan[] = [];
    let rejected = 0;
    let late = 0;
    let deep = 0;
    let firstDeep = '';
    // a trace's spans mostly come one after another: its sealed state is looked up once
    let lastTrace = '';
    let lastSealed = false;
    for (const rs of resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          if (!hasValidIds(span)) {
            rejected += 1;
            continue;
          }
          const tooDeep = tooDeepAttribute(span);
          if (tooDeep !== null) {
            if (deep === 0) firstDeep = `span ${span.spanId} of trace ${span.traceId}: ${tooDeep}`;
            deep += 1;
            continue;
          }
          const traceId = span.traceId;
          if (traceId !== lastTrace) {
            lastTrace = traceId;
            lastSealed = this.#assembler.isSealed(traceId);
          }
          if (lastSealed) late += 1;
          else spans.push(span);
        }
      }
    }
    if (
      spans.length > 0 &&
      (this.#queuedSpans + spans.length > this.config.maxQueuedSpans ||
        this.#pendingTrials() >= this.config.maxPendingTrials)
    ) {
      return this.#throttle();
    }
    this.metrics.spansRejected += rejected + late + deep;
    if (spans.length > 0) {
      const source = reload === undefined ? null : () => spansWithValidIds(reload());
      if (source !== null && body !== undefined) {
        // the queue entry holds the body, and its decoded spans read it in place
        body.retain();
        body.addView();
        this.#bodies.set(source, body);
      }
      this.#queue.push({ spans, source });
      this.#queuedSpans += spans.length;
      this.metrics.spansReceived += spans.length;
      this.metrics.queueDepthSpans = this.#queuedSpans;
      this.#scheduleDrain();
    }
    if (rejected === 0 && late === 0 && deep === 0) return EMPTY_OUTCOME;
    const messages: string[] = [];
    if (rejected > 0) messages.push(`${rejected} span(s) without a valid trace id or span id were rejected`);
    if (deep > 0)
      messages.push(`${deep} span(s) with attributes nested too deeply were rejected (${firstDeep})`);
    if (late > 0) {
      messages.push(
        `${late} span(s) arrived for trials already sealed (scored ${this.config.retainMs} ms ago or more` +
          (this.config.retainMaxTrials === undefined
            ? ''
            : `, or older than the ${this.config.retainMaxTrials} most recently scored trials`) +
          ') and were rejected',
      );
    }
    return { rejectedSpans: rejected + late + deep, errorMessage: messages.join('; ') };
  }

  /**
   * Accepts one logs export's records, or answers `Saturated` when as many records as
   * `maxQueuedSpans` are held already. Each record joins the trial of its trace id: one not scored
   * yet takes it when it is (whether the record came before or after its spans), one scored already
   * is scored again with it (as for late spans). Records without a trace id, or whose trial is
   * sealed, are refused as partial success.
   */
  acceptLogs(records: readonly OtlpLogRecord[]): ExportOutcome | Saturated {
    let withoutTrace = 0;
    let late = 0;
    const taken: OtlpLogRecord[] = [];
    for (const record of records) {
      if (isZeroId(record.traceId)) withoutTrace += 1;
      else if (this.#assembler.isSealed(record.traceId)) late += 1;
      else taken.push(record);
    }
    if (taken.length > 0 && this.#logRecordsHeld + taken.length > this.config.maxQueuedSpans)
      return this.#throttle();
    const now = this.nowMs();
    const rescore = new Set<LiveTrial>();
    for (const record of taken) {
      let held = this.#logs.get(record.traceId);
      if (held === undefined) {
        held = { records: [], sinceMs: now };
        this.#logs.set(record.traceId, held);
      }
      held.records.push(record);
      const trace = this.#assembler.trial(record.traceId);
      if (trace !== undefined && trace.version > 0 && !trace.dirty) rescore.add(trace);
    }
    this.#logRecordsHeld += taken.length;
    this.metrics.logRecordsReceived += taken.length;
    this.metrics.logRecordsRejected += withoutTrace + late;
    for (const trace of rescore) this.#enqueue(trace, 'late-spans');
    if (rescore.size > 0) this.#pump();
    if (withoutTrace === 0 && late === 0) return EMPTY_OUTCOME;
    const messages: string[] = [];
    if (withoutTrace > 0)
      messages.push(`${withoutTrace} log record(s) without a trace id cannot join a trial and were rejected`);
    if (late > 0) messages.push(`${late} log record(s) arrived for trials already sealed and were rejected`);
    return { rejectedSpans: withoutTrace + late, errorMessage: messages.join('; ') };
  }

  /** Lets go of the log records of traces no span of which came within `idleTimeoutMs` of them. */
  #expireLogs(now: number): void {
    for (const [traceId, held] of this.#logs) {
      if (now - held.sinceMs < this.config.completion.idleTimeoutMs) break;
      if (this.#assembler.trial(traceId) === undefined) this.#dropLogs(traceId, true);
    }
  }

  #dropLogs(traceId: string, unattached: boolean): void {
    const held = this.#logs.get(traceId);
    if (held === undefined) return;
    this.#logs.delete(traceId);
    this.#logRecordsHeld -= held.records.length;
    if (unattached) this.metrics.logRecordsUnattached += held.records.length;
  }

  /**
   * The answer to any request with spans while the queues are full, or null:
   * the receivers ask before reading a body, so a saturated receiver refuses exports without reading,
   * decoding or copying them (a request that would bring no acceptable span is refused too then; its
   * retry is harmless). Counted as a throttled export like a refusal by {@link accept}.
   */
  saturation(): Saturated | null {
    return this.#queuesFull() ? this.#throttle() : null;
  }

  isSaturated(): boolean {
    return this.#queuesFull();
  }

  #queuesFull(): boolean {
    return (
      this.#queuedSpans >= this.config.maxQueuedSpans || this.#pendingTrials() >= this.config.maxPendingTrials
    );
  }

  /**
   * Waits up to `timeoutMs` for room in the queues on behalf of an export that found them full;
   * each wait and its time are counted (`evalstream_export_waits_total`, `…_wait_ms_sum`).
   */
  waitForCapacity(timeoutMs: number): Promise<void> {
    if (!this.isSaturated()) return Promise.resolve();
    const started = performance.now();
    return this.#capacityWaiters
      .wait(timeoutMs)
      .then(() => this.metrics.observeExportWait(performance.now() - started));
  }

  /** As {@link waitForCapacity}, not counted: for a watcher of the queues' state, not an export. */
  whenRoom(timeoutMs: number): Promise<void> {
    if (!this.isSaturated()) return Promise.resolve();
    return this.#capacityWaiters.wait(timeoutMs);
  }

  /** Lets the oldest waiting request in when the queues have room (called as they shrink). */
  #admitWaiter(): void {
    if (this.#capacityWaiters.size > 0 && !this.isSaturated()) this.#capacityWaiters.admitOldest();
  }

  #throttle(): Saturated {
    this.metrics.exportsThrottled += 1;
    return {
      saturated: true,
      retryAfterSec: this.config.retryAfterSec,
      message: `receiver saturated (${this.#queuedSpans} spans queued, ${this.#pendingTrials()} trials pending); retry later`,
    };
  }

  /** Moves queued spans into the assembler and hands completed trials to scoring (also run by the timer). */
  tick(): void {
    this.#drainQueue();
    const now = this.nowMs();
    for (const [trace, reason] of this.#assembler.due(now)) this.#enqueue(trace, reason);
    this.metrics.trialsOpen = this.#assembler.openCount;
    this.#pump();
    this.#seal(now);
    this.#expireLogs(now);
  }

  /**
   * Releases the spans of trials scored more than `retainMs` ago, and of the oldest-scored trials
   * beyond `retainMaxTrials`, that nothing is pending for.
   */
  #seal(now: number): void {
    const most = this.config.retainMaxTrials ?? Infinity;
    for (const [key, at] of this.#scoredAt) {
      if (now - at < this.config.retainMs && this.#scoredAt.size <= most) break;
      this.#scoredAt.delete(key);
      // queued or being scored: scored again later, and sealed after that
      if (this.#jobs.has(key) || this.#scoring.has(key)) continue;
      const traces = this.#tracesByKey.get(key);
      if (traces === undefined) continue;
      const traceIds = traces instanceof Map ? [...traces.keys()] : [traces.key];
      this.#assembler.seal(traceIds);
      for (const traceId of traceIds) if (this.#assembler.isSealed(traceId)) this.#dropLogs(traceId, false);
      this.#tracesByKey.delete(key);
    }
  }

  /**
   * Stops timers, scores everything (open trials flushed with a diagnostic), waits for the sinks,
   * drops the stream's state (call it after the receivers stop accepting) and returns the number of
   * trials scored; {@link eachFinalTrial} then reads them. Safe to call twice.
   */
  async shutdown(): Promise<number> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    // requests waiting for room go on to the receivers' answer (503 once they stop accepting)
    this.#capacityWaiters.releaseAll();
    this.#drainQueue();
    for (const [trace, reason] of this.#assembler.due(this.nowMs())) this.#enqueue(trace, reason);
    for (const [trace, reason] of this.#assembler.flush()) this.#enqueue(trace, reason);
    this.#pump();
    await this.whenIdle();
    // Nothing arrives any more (the receivers stop accepting first): the stream's state (spans,
    // request bodies, trace maps) goes before the bundle is written, not collected while it is.
    for (const traceId of [...this.#logs.keys()])
      this.#dropLogs(traceId, this.#assembler.trial(traceId) === undefined);
    this.#assembler.clear();
    this.#tracesByKey.clear();
    this.#scoredAt.clear();
    return this.#kept.size;
  }

  /** Resolves when no span is queued and no trial is waiting or being scored. */
  whenIdle(): Promise<void> {
    if (this.#queuedSpans === 0 && this.#pendingTrials() === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Every trial's latest scored version, in first-scored order. */
  finalTrials(): ScoredTrial[] {
    return [...this.eachFinalTrial()];
  }

  /**
   * {@link finalTrials} one at a time: each trial is rebuilt from the packed records when it is
   * reached, so a caller that writes them out never holds more than one.
   */
  *eachFinalTrial(): Generator<ScoredTrial> {
    for (let slot = 0; slot < this.#kept.size; slot++) yield this.#kept.get(slot).scored;
  }

  /**
   * The summary of every trial's latest version (as `buildSummary` over {@link finalTrials}, with the
   * tasks in first-scored order). Kept up to date incrementally: after the first read, each newly
   * scored trial is added to a {@link SummaryBuilder} as it is scored, and a read takes a snapshot;
   * a re-scored trial makes the next read rebuild it from the kept trials.
   */
  summary(): Summary {
    if (this.#summaryCache !== null) return this.#summaryCache;
    this.#summaryCache = this.#currentSummaryBuilder().snapshot();
    return this.#summaryCache;
  }

  /** {@link summary} with `task_metric_values` left empty (`{}`): cheaper for a large run. */
  summaryWithoutTaskValues(): Summary {
    if (this.#summaryCache !== null) return { ...this.#summaryCache, task_metric_values: {} };
    this.#lightSummaryCache ??= this.#currentSummaryBuilder().snapshot([], { taskValues: false });
    return this.#lightSummaryCache;
  }

  #currentSummaryBuilder(): SummaryBuilder {
    let builder = this.#summaryBuilder;
    if (builder === null) {
      builder = new SummaryBuilder([]);
      this.#summaryBuilder = builder;
      for (const trial of this.eachFinalTrial()) this.#addToSummary(builder, trial);
    }
    return builder;
  }

  #addToSummary(builder: SummaryBuilder, trial: ScoredTrial): void {
    // tasks in first-scored order, each with its first trial's spec
    if (!builder.hasTask(trial.task.id)) builder.addTaskSpec(trial.task);
    for (const score of trial.scores) builder.addScore(score);
    builder.addTrial(trial.item.trial);
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
    if (this.#intervalsCache !== null) return this.#intervalsCache;
    if (this.#intervalsStale) {
      this.#intervals.clear();
      for (const trial of this.eachFinalTrial()) this.#intervals.add(trial);
      this.#intervalsStale = false;
    }
    this.#intervalsCache = this.#intervals.json(this.config.stopWhenWidth ?? null);
    return this.#intervalsCache;
  }

  trialJson(trialId: string): unknown | undefined {
    const slot = this.#resultsByTrialId.get(trialId);
    if (slot === undefined) return undefined;
    const result = this.#kept.get(slot);
    return {
      trial_id: result.scored.item.trial.id,
      task_id: result.scored.task.id,
      version: result.version,
      completion: result.completion,
      status: result.scored.item.trial.status,
      scores: result.scored.scores,
    };
  }

  metricsText(): string {
    return this.metrics.render();
  }

  onEvent(listener: (event: { type: string; data: unknown }) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  healthy(): boolean {
    return this.#problems.length === 0;
  }

  /**
   * What makes this run's outputs incomplete so far (a failed sink, trials that could not be
   * scored), as one line, or null. The run goes on regardless; `serve` reports it at `/healthz`
   * and exits non-zero with it.
   */
  problem(): string | null {
    if (this.#problems.length === 0) return null;
    const unscored =
      this.#unscoredTrials > 1 ? ` (${this.#unscoredTrials} trials could not be scored in all)` : '';
    return this.#problems.join('; ') + unscored;
  }

  #report(message: string): void {
    this.#problems.push(message);
    this.config.onProblem?.(message);
  }

  #pendingTrials(): number {
    return this.#jobs.size + this.#running;
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    setImmediate(() => {
      this.#drainScheduled = false;
      this.#drainQueue();
      this.#notifyIdle();
    });
  }

  #drainQueue(): void {
    const now = this.nowMs();
    while (this.#queue.length > 0) {
      const { spans, source } = this.#queue.shift()!;
      const added = this.#assembler.add(spans, now, source);
      if (source !== null) {
        // the queue entry's view and hold go (trials that took spans hold their own)
        const body = this.#bodies.get(source);
        body?.dropView();
        body?.release();
      }
      this.metrics.spansDuplicate += spans.length - added;
      this.#queuedSpans -= spans.length;
    }
    this.metrics.queueDepthSpans = this.#queuedSpans;
    this.metrics.trialsOpen = this.#assembler.openCount;
    this.#admitWaiter();
  }

  /** A completed trace joins its trial (by the file source's key rule); the trial is queued for scoring. */
  #enqueue(trace: LiveTrial, reason: ReadyReason): void {
    const traceId = trace.key;
    let key = trace.trialKey;
    if (key === null) {
      const resolved = resolveNotedKey([trace.notes], this.config.trialKeys, 0, () => trace.spans);
      key = resolved === null ? `trace\u0000${traceId}` : `key\u0000${resolved}`;
      trace.trialKey = key;
    }
    const filed = this.#tracesByKey.get(key);
    let ordered: LiveTrial[];
    if (filed === undefined || filed === trace) {
      this.#tracesByKey.set(key, trace);
      ordered = [trace];
    } else {
      let traces: Map<string, LiveTrial>;
      if (filed instanceof Map) traces = filed;
      else {
        traces = new Map([[filed.key, filed]]);
        this.#tracesByKey.set(key, traces);
      }
      traces.set(traceId, trace);
      ordered = [...traces.values()];
    }
    const pending = this.#jobs.get(key);
    if (pending !== undefined) {
      pending.traces = ordered;
      pending.reason = worstReason(pending.reason, reason);
    } else {
      this.#jobs.set(key, { key, traces: ordered, reason, readyAtMs: this.nowMs() });
    }
    this.metrics.scoringQueueTrials = this.#pendingTrials();
  }

  /**
   * Starts queued scorings, in slices of about {@link SCORING_SLICE_MS} of one event-loop turn: a
   * scoring whose metrics resolve at once runs to its end in microtasks, so starting every due
   * trial in one turn (or each next one from the last one's completion) would keep the receivers
   * waiting for all of them; past the slice the next one starts in a later turn, after I/O.
   */
  #pump(): void {
    while (this.#running < this.config.concurrency && this.#jobs.size > 0) {
      if (performance.now() - this.#sliceStart >= SCORING_SLICE_MS) {
        if (!this.#pumpScheduled) {
          this.#pumpScheduled = true;
          setImmediate(() => {
            this.#pumpScheduled = false;
            this.#sliceStart = performance.now();
            this.#pump();
          });
        }
        return;
      }
      this.#startNext();
    }
    this.#notifyIdle();
  }

  #startNext(): void {
    const job = this.#jobs.values().next().value!;
    this.#jobs.delete(job.key);
    this.#running += 1;
    this.#scoring.set(job.key, (this.#scoring.get(job.key) ?? 0) + 1);
    this.#score(job)
      .catch((error: unknown) => {
        // one trial's evidence broke the scoring or the summary: that trial is reported, the run goes on
        this.#unscoredTrials += 1;
        if (this.#unscoredTrials === 1)
          this.#report(`trial key '${printableKey(job.key)}' could not be scored: ${messageOf(error)}`);
      })
      .finally(() => {
        this.#running -= 1;
        const scoring = this.#scoring.get(job.key)! - 1;
        if (scoring === 0) this.#scoring.delete(job.key);
        else this.#scoring.set(job.key, scoring);
        this.metrics.scoringQueueTrials = this.#pendingTrials();
        this.#admitWaiter();
        this.#pump();
        this.#notifyIdle();
      });
  }

  #notifyIdle(): void {
    if (this.#queuedSpans !== 0 || this.#pendingTrials() !== 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  async #score(job: ScoringJob): Promise<void> {
    const spans = job.traces.length === 1 ? job.traces[0]!.spans.slice() : job.traces.flatMap((t) => t.spans);
    // the keys as `resolveKey` reads them over `spans`, from what each trace noted as its spans came
    const notes = job.traces.map((t) => t.notes);
    const { trialKeys, taskKeys } = this.config;
    const trialValue = resolveNotedKey(notes, trialKeys, 0, () => spans);
    const trialId = trialValue ?? job.traces[0]!.key;
    const taskId = resolveNotedKey(notes, taskKeys, trialKeys.length, () => spans) ?? trialId;
    const item = buildOtlpTrialItem({
      trialId,
      taskId,
      handle: OTLPTraceHandle.fromSpans(
        spans,
        job.traces.flatMap((t) => this.#logs.get(t.key)?.records ?? []),
      ),
      origin: { file: 'otlp-live' },
    });
    // the output text is kept with the trial (plainOutput below): read it now, so that the metrics'
    // candidates get it as a plain value instead of each defining a lazy one
    if (item.trial.output !== null) void item.trial.output.output_text;
    const plan = this.planner(item);
    const timeout = this.config.metricTimeoutMs > 0 ? { timeoutMs: this.config.metricTimeoutMs } : {};
    const scores = await scoreTrial(item, plan.task, plan.metrics, {
      runId: this.config.runId,
      rowIndex: plan.rowIndex,
      ...timeout,
    });
    const note = completionDiagnostic(trialId, job.reason, this.config.completion.idleTimeoutMs);
    const finalScores: ScoreRecord[] =
      note === null ? scores : scores.map((s) => ({ ...s, diagnostics: [...s.diagnostics, note] }));
    const scored: ScoredTrial = { item, scores: finalScores, task: plan.task };
    const previous = this.#results.get(job.key);
    const version = previous === undefined ? 1 : this.#kept.version(previous) + 1;
    for (const sink of this.sinks) {
      if (this.#failedSinks.has(sink)) continue;
      try {
        await sink.write(scored);
      } catch (error) {
        this.#failedSinks.add(sink);
        this.#report(`a sink failed and receives no more trials: ${messageOf(error)}`);
      }
    }
    // Keep the records, not the trace: spans stay only with the assembler until the trial is sealed.
    // The output is copied as plain data: an OTLP trial's lazy `output_text` holds its trace handle.
    // the slot is read again after the sinks: a scoring of the same trial that started meanwhile
    // may have kept it first, and this version must then replace it, not take a second slot
    const replaced = this.#results.get(job.key) ?? null;
    const kept: ScoredTrial = {
      ...scored,
      item: {
        ...item,
        evidence: null,
        trial: { ...item.trial, output: plainOutput(item.trial.output), evidence: null },
      },
    };
    const slot = this.#kept.put(replaced, kept, version, job.reason);
    if (this.#summaryBuilder !== null) {
      if (replaced === null) this.#addToSummary(this.#summaryBuilder, kept);
      else this.#summaryBuilder = null;
    }
    if (replaced === null) this.#intervals.add(kept);
    else this.#intervalsStale = true;
    this.#intervalsCache = null;
    this.#results.set(job.key, slot);
    // The spans go back to their requests' bodies until late spans (or a re-scoring) need them.
    if (!this.#jobs.has(job.key)) for (const trace of job.traces) this.#assembler.release(trace);
    this.#scoredAt.delete(job.key);
    this.#scoredAt.set(job.key, this.nowMs());
    this.#resultsByTrialId.set(trialId, slot);
    this.#summaryCache = null;
    this.#lightSummaryCache = null;
    if (version === 1) this.metrics.trialsScored += 1;
    else this.metrics.trialsRescored += 1;
    this.metrics.observeLatency(this.nowMs() - job.readyAtMs);
    if (this.#listeners.size === 0) return;
    const event = {
      type: 'score',
      data: { trial_id: trialId, task_id: taskId, version, completion: job.reason, scores: finalScores },
    };
    for (const listener of this.#listeners) listener(event);
  }
}

/** The spans of a request `accept` can have taken from it (valid ids, not too deep), in request order. */
function spansWithValidIds(resourceSpans: readonly OtlpResourceSpans[]): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const rs of resourceSpans) {
    for (const ss of rs.scopeSpans)
      for (const span of ss.spans) if (hasValidIds(span) && tooDeepAttribute(span) === null) spans.push(span);
  }
  return spans;
}

function hasValidIds(span: OtlpSpan): boolean {
  return !isZeroId(span.traceId) && !isZeroId(span.spanId);
}

/** True for an empty or all-zero hex id (invalid in OTLP). */
function isZeroId(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) !== 48) return false;
  return true;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A trial key as `#enqueue` builds it (`key\u0000<id>` or `trace\u0000<trace id>`), for messages. */
function printableKey(key: string): string {
  return key.slice(key.indexOf('\u0000') + 1);
}

function worstReason(a: ReadyReason, b: ReadyReason): ReadyReason {
  const rank: Record<ReadyReason, number> = { ended: 0, 'late-spans': 1, 'idle-timeout': 2, shutdown: 3 };
  return rank[a] >= rank[b] ? a : b;
}

function completionDiagnostic(trialId: string, reason: ReadyReason, idleMs: number): Diagnostic | null {
  if (reason === 'idle-timeout') {
    return {
      severity: 'warning',
      message: `trial '${trialId}' had no end span; scored after ${idleMs} ms without new spans`,
      source: 'evalstream.serve',
      details: { completion: 'idle-timeout' },
    };
  }
  if (reason === 'shutdown') {
    return {
      severity: 'warning',
      message: `trial '${trialId}' was still open at shutdown; scored as incomplete`,
      source: 'evalstream.serve',
      details: { completion: 'shutdown' },
    };
  }
  return null;
}

/** A plain copy of a trial output (reads a lazy `output_text` once; keeps no trace handle). */
function plainOutput(output: AgentOutput | null): AgentOutput | null {
  return output === null ? null : { ...output };
}
