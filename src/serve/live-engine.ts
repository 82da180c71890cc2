import { map, Subject } from 'rxjs';
import {
  OtlpTrialGrouper,
  type LiveCompletion,
  type LiveReadyTrial,
  type ReadyReason,
} from '../evidence/otlp/otlp-trial-grouper.js';
import type { OtlpExportRequest, OtlpResourceSpans, OtlpSpan } from '../evidence/otlp/otlp-types.js';
import type { Diagnostic } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Summary } from '../model/summary.js';
import type { TrialItem } from '../model/trial-item.js';
import { scoreTrials } from '../operators/score-trials.js';
import type { TrialPlan } from '../pipeline/create-trial-planner.js';
import { writeToSinks } from '../pipeline/write-to-sinks.js';
import type { Sink } from '../sinks/sink.js';
import { CapacityWaiters } from './capacity-waiters.js';
import type { ExportOutcome } from './export-response.js';
import { LiveState, type LiveEvent } from './live-state.js';
import type { ExportHandler, LiveReadApi, Saturated } from './serve-types.js';
import { ServeMetrics } from './serve-metrics.js';
import { SharedAttributeChecks, tooDeepAttribute } from './too-deep-attribute.js';
import { isValidOtlpId } from '../evidence/otlp/is-valid-otlp-id.js';

/** Configuration of the live engine (validated by the `serve` command). */
export interface LiveEngineConfig {
  runId: string;
  completion: LiveCompletion;
  /** Trial and task key attributes, as for the file source. */
  trialKeys: readonly string[];
  taskKeys: readonly string[];
  /**
   * Most spans and log records accepted but not yet grouped (queued requests); past it exports are
   * throttled.
   */
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
   * spans are dropped (memory stays bounded) and later spans for it are refused as partial success.
   */
  retainMs: number;
  /**
   * Most scored trials retained at once; past it the ones scored longest ago are sealed early, so
   * memory stays bounded at high rates (each retained trial keeps its spans). Default
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

/** A trial handed out for scoring and when it became ready; built and planned as it starts scoring. */
interface ScoringJob extends LiveReadyTrial {
  readyAtMs: number;
}

/** A job being scored: its trial and plan. */
interface RunningJob extends ScoringJob {
  item: TrialItem;
  plan: TrialPlan;
}

const EMPTY_OUTCOME: ExportOutcome = { rejectedSpans: 0, errorMessage: '' };
/**
 * Longest stretch (ms) of one event-loop turn spent starting scorings before receiving again. A large
 * export arrives in ~64 kB reads, one per turn, so shorter slices answer it sooner.
 */
const SCORING_SLICE_MS = 4;

/**
 * `serve`'s source on the file path's road: decoded requests enter through {@link acceptRequest}
 * (never blocking; throttled when the bounded queues are full), are grouped into trials by the file
 * path's `OtlpTrialGrouper` under the live completion policy (end-of-trial span and settle, idle
 * timeout; late spans re-open a trial, which is handed out again as a new version), and each trial
 * handed out goes through the same `scoreTrials` stage and `writeToSinks` fan-out as a file's
 * trials; the scored trials end in the {@link LiveState} (summary, intervals, events, the latest
 * version of every trial). A sink that fails is written to no more and reported (`problem`).
 *
 * @example
 * const engine = new LiveEngine(config, planner, [store], Date.now);
 * engine.start(); // completion timer
 * engine.acceptRequest(request); // from a receiver
 * await engine.shutdown(); // scores what is complete, flushes open trials
 * for (const trial of engine.eachFinalTrial()) write(trial); // every trial once
 */
export class LiveEngine implements ExportHandler, LiveReadApi {
  readonly metrics = new ServeMetrics();
  readonly #grouper: OtlpTrialGrouper;
  /** Accepted requests not yet grouped (grouped on the next turn, after the receivers answered). */
  readonly #queue: {
    request: OtlpExportRequest;
    spans: number;
    reload: (() => OtlpExportRequest) | undefined;
  }[] = [];
  #queuedSpans = 0;
  /** Trials waiting for a scoring slot, by trial key, oldest first (a key is queued at most once). */
  readonly #jobs = new Map<string, ScoringJob>();
  /** Jobs given to the scoring stage and not yet through the sinks, by their item. */
  readonly #running = new Map<TrialItem, RunningJob>();
  /** Trial keys scored, by last scoring time, oldest first (for sealing). */
  readonly #scoredAt = new Map<string, number>();
  readonly #state: LiveState;
  /** Trials into the scoring stage: the same `scoreTrials` → `writeToSinks` road as a file's. */
  #scoring = new Subject<TrialItem>();
  readonly #scored: Promise<void>;
  #timer: NodeJS.Timeout | null = null;
  #drainScheduled = false;
  #pumpScheduled = false;
  /** When the current scoring slice began (`performance.now()`). */
  #sliceStart = 0;
  #idleWaiters: (() => void)[] = [];
  /** Requests waiting for room in the queues (`waitForCapacity`), oldest first. */
  readonly #capacityWaiters = new CapacityWaiters();
  /** What went wrong so far, in order (first of each kind), and how many trials could not be scored. */
  readonly #problems: string[] = [];
  readonly #sinkErrors = new Set<unknown>();
  #unscoredTrials = 0;

  constructor(
    private readonly config: LiveEngineConfig,
    private readonly planner: (item: TrialItem) => TrialPlan,
    sinks: readonly Sink<ScoredTrial>[],
    private readonly nowMs: () => number = Date.now,
  ) {
    this.#grouper = new OtlpTrialGrouper({
      trialKeys: config.trialKeys,
      taskKeys: config.taskKeys,
      live: config.completion,
    });
    this.#state = new LiveState(config.stopWhenWidth ?? null);
    this.#scored = this.#openScoring(sinks.map((sink) => this.#tolerant(sink)));
  }

  /**
   * Opens the scoring road: trials pushed to `#scoring` → `scoreTrials` → completion note →
   * `writeToSinks` → the live state. Resolves when it ends; should it break (a bug, not a trial's
   * problem: those are failed scores), the trials in it are reported unscored and a new one opens.
   */
  #openScoring(sinks: Sink<ScoredTrial>[]): Promise<void> {
    const timeout = this.config.metricTimeoutMs > 0 ? this.config.metricTimeoutMs : null;
    const idleMs = this.config.completion.idleTimeoutMs;
    this.#scoring = new Subject<TrialItem>();
    return new Promise((resolve) => {
      this.#scoring
        .pipe(
          scoreTrials({
            runId: this.config.runId,
            plan: (item) => this.#running.get(item)!.plan,
            concurrency: this.config.concurrency,
            timeoutMs: timeout,
          }),
          map((scored) => {
            const job = this.#running.get(scored.item)!;
            return withNote(scored, completionDiagnostic(scored.item.trial.id, job.reason, idleMs));
          }),
          writeToSinks(sinks),
        )
        .subscribe({
          next: (scored) => this.#keep(scored),
          error: (error: unknown) => {
            for (const job of this.#running.values()) this.#unscored(job.key, error);
            this.#running.clear();
            resolve(this.#openScoring(sinks));
            this.#pump();
          },
          complete: () => resolve(),
        });
    });
  }

  /** Starts the completion timer. */
  start(): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => this.tick(), this.config.tickMs);
    this.#timer.unref();
  }

  /**
   * The one way into the live path: takes a decoded request (spans and/or log records) from any
   * transport, or answers `Saturated` when the queues are full (nothing is taken then). Spans
   * without valid ids, with attributes nested too deeply, or of sealed trials, and log records
   * without a trace id or of sealed trials, are refused (partial success, said in the outcome and
   * counted); the rest is grouped on the next turn. A log record joins the trial of its trace id:
   * before the trace's spans it waits for them (counted as unattached when none come within the
   * idle timeout), after the trial was scored it makes it scored again, as late spans do. `reload`
   * decodes the same request again: with it, a scored trial's spans are dropped from the heap and
   * read back when they are needed again (late spans), so trials kept for late spans cost the
   * garbage collector little.
   */
  acceptRequest(request: OtlpExportRequest, reload?: () => OtlpExportRequest): ExportOutcome | Saturated {
    let rejected = 0;
    let late = 0;
    let deep = 0;
    let firstDeep = '';
    let kept = 0;
    // a trace's spans mostly come one after another: its sealed state is looked up once
    let lastTrace = '';
    let lastSealed = false;
    const sealed = (traceId: string): boolean => {
      if (traceId !== lastTrace) {
        lastTrace = traceId;
        lastSealed = this.#grouper.isSealed(traceId);
      }
      return lastSealed;
    };
    let refused: Set<OtlpSpan> | null = null;
    const decoderRefused = decoderRefusals(request);
    const shared = new SharedAttributeChecks();
    for (const rs of request.resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const span of ss.spans) {
          const why = ownRefusal(span, decoderRefused, shared);
          if (why === '') rejected += 1;
          else if (why !== null) {
            if (deep === 0) firstDeep = `span ${span.spanId} of trace ${span.traceId}: ${why}`;
            deep += 1;
          } else if (sealed(span.traceId)) late += 1;
          else {
            kept += 1;
            continue;
          }
          (refused ??= new Set()).add(span);
        }
      }
    }
    // a log record joins the trial of its trace id: it cannot without one, or once that trial is sealed
    let logs = request.logRecords;
    let logsWithoutTrace = 0;
    let logsLate = 0;
    for (const log of logs) {
      if (!isValidOtlpId(log.traceId, 16)) logsWithoutTrace += 1;
      else if (sealed(log.traceId)) logsLate += 1;
    }
    if (logsWithoutTrace + logsLate > 0)
      logs = logs.filter((log) => isValidOtlpId(log.traceId, 16) && !this.#grouper.isSealed(log.traceId));
    // log records wait in the queue as spans do, and count against the same bound
    const items = kept + logs.length;
    if (
      items > 0 &&
      (this.#queuedSpans + items > this.config.maxQueuedSpans ||
        this.#pendingTrials() >= this.config.maxPendingTrials)
    ) {
      return this.#throttle();
    }
    this.metrics.spansRejected += rejected + late + deep;
    this.metrics.logRecordsRejected += logsWithoutTrace + logsLate;
    if (items > 0) {
      const resourceSpans =
        refused === null ? request.resourceSpans : without(request.resourceSpans, refused);
      // read back, a request gives the spans taken now (sealed ones are refused again when grouped)
      const again = reload === undefined ? undefined : () => acceptable(reload());
      this.#queue.push({ request: { resourceSpans, logRecords: logs }, spans: items, reload: again });
      this.#queuedSpans += items;
      this.metrics.spansReceived += kept;
      this.metrics.logRecordsReceived += logs.length;
      this.metrics.queueDepthSpans = this.#queuedSpans;
      this.#scheduleDrain();
    }
    const refusedLogs = logsWithoutTrace + logsLate;
    if (rejected === 0 && late === 0 && deep === 0 && refusedLogs === 0) return EMPTY_OUTCOME;
    const messages: string[] = [];
    if (rejected > 0) messages.push(`${rejected} span(s) without a valid trace id or span id were rejected`);
    if (deep > 0)
      messages.push(
        `${deep} span(s) with attributes nested too deeply or that do not decode were rejected (${firstDeep})`,
      );
    if (late > 0) {
      messages.push(
        `${late} span(s) arrived for trials already sealed (scored ${this.config.retainMs} ms ago or more` +
          (this.config.retainMaxTrials === undefined
            ? ''
            : `, or older than the ${this.config.retainMaxTrials} most recently scored trials`) +
          ') and were rejected',
      );
    }
    if (logsWithoutTrace > 0)
      messages.push(
        `${logsWithoutTrace} log record(s) without a valid trace id cannot join a trial and were rejected`,
      );
    if (logsLate > 0)
      messages.push(`${logsLate} log record(s) arrived for trials already sealed and were rejected`);
    return { rejectedSpans: rejected + late + deep + refusedLogs, errorMessage: messages.join('; ') };
  }

  /**
   * The answer to any request with spans while the queues are full, or null: the receivers ask
   * before reading a body, so a saturated receiver refuses exports without reading or decoding them
   * (a request that would bring no acceptable span is refused too then; its retry is harmless).
   * Counted as a throttled export like a refusal by {@link acceptRequest}.
   */
  saturation(): Saturated | null {
    return this.isSaturated() ? this.#throttle() : null;
  }

  isSaturated(): boolean {
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

  /** Groups queued requests and hands completed trials to scoring (also run by the timer). */
  tick(): void {
    this.#drainQueue();
    const now = this.nowMs();
    this.#enqueue(this.#grouper.due(now), now);
    this.metrics.logRecordsUnattached = this.#grouper.unattachedLiveLogRecords;
    this.#pump();
    this.#seal(now);
  }

  /**
   * Seals (forgets, refusing later spans) the trials scored more than `retainMs` ago, and the
   * oldest-scored trials beyond `retainMaxTrials`, that nothing is pending for.
   */
  #seal(now: number): void {
    const most = this.config.retainMaxTrials ?? Infinity;
    for (const [key, at] of this.#scoredAt) {
      if (now - at < this.config.retainMs && this.#scoredAt.size <= most) break;
      this.#scoredAt.delete(key);
      // queued or being scored, or with spans not yet handed out: sealed after its next scoring
      if (this.#jobs.has(key) || this.#isRunning(key)) continue;
      this.#grouper.seal(key);
    }
  }

  /**
   * Stops timers, scores everything (open trials flushed with a diagnostic), waits for the sinks,
   * drops the stream's state (call it after the receivers stop accepting) and returns the number of
   * trials scored; {@link finalTrials} then reads them. Safe to call twice.
   */
  async shutdown(): Promise<number> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    // requests waiting for room go on to the receivers' answer (503 once they stop accepting)
    this.#capacityWaiters.releaseAll();
    this.#drainQueue();
    const now = this.nowMs();
    this.#enqueue(this.#grouper.due(now), now);
    this.#enqueue(this.#grouper.flushLive(), now);
    this.metrics.logRecordsUnattached = this.#grouper.unattachedLiveLogRecords;
    this.#pump();
    await this.whenIdle();
    this.#scoring.complete();
    await this.#scored;

    // Nothing arrives any more (the receivers stop accepting first): the stream's state (spans,
    // traces) goes before the bundle is written, not collected while it is.
    this.#grouper.clearLive();
    this.#scoredAt.clear();
    return this.#state.size;
  }

  /** Resolves when no request is queued and no trial is waiting or being scored. */
  whenIdle(): Promise<void> {
    if (this.#queuedSpans === 0 && this.#queue.length === 0 && this.#pendingTrials() === 0)
      return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Every trial's latest scored version, in first-scored order. */
  finalTrials(): ScoredTrial[] {
    return [...this.#state.eachFinalTrial()];
  }

  /** {@link finalTrials} one at a time, read back as they are taken. */
  eachFinalTrial(): Generator<ScoredTrial> {
    return this.#state.eachFinalTrial();
  }

  /** Lets the kept trials go (after the bundle is written): the engine keeps nothing afterwards. */
  close(): void {
    this.#state.close();
  }

  /** The summary of every trial's latest version (see {@link LiveState.summary}). */
  summary(): Summary {
    return this.#state.summary();
  }

  /** {@link summary} with `task_metric_values` left empty (`{}`): cheaper for a large run. */
  summaryWithoutTaskValues(): Summary {
    return this.#state.summaryWithoutTaskValues();
  }

  summaryJson(options: { omitTaskValues?: boolean } = {}): unknown {
    return this.#state.summaryJson(options);
  }

  trialJson(trialId: string): unknown {
    return this.#state.trialJson(trialId);
  }

  metricsText(): string {
    this.metrics.trialsOpen = this.#grouper.openCount;
    return this.metrics.render();
  }

  onEvent(listener: (event: LiveEvent) => void): () => void {
    return this.#state.onEvent(listener);
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

  /**
   * Reports a sink's failure found outside its `write` (a send in the background): `/healthz`, the log
   * and the exit code say it at once. Each error is reported once, also when a later `write` rejects
   * with it.
   */
  sinkFailed(error: unknown): void {
    if (this.#sinkErrors.has(error)) return;
    this.#sinkErrors.add(error);
    this.#report(`a sink failed and receives no more trials: ${messageOf(error)}`);
  }

  #report(message: string): void {
    this.#problems.push(message);
    this.config.onProblem?.(message);
  }

  #isRunning(key: string): boolean {
    for (const job of this.#running.values()) if (job.key === key) return true;
    return false;
  }

  #pendingTrials(): number {
    return this.#jobs.size + this.#running.size;
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
      const { request, spans, reload } = this.#queue.shift()!;
      const accepted = this.#grouper.accept(request, now, reload);
      this.metrics.spansDuplicate += accepted.duplicates;
      // sealed between the answer and now
      this.metrics.spansRejected += accepted.late - accepted.lateLogRecords;
      this.metrics.logRecordsRejected += accepted.lateLogRecords;
      this.#queuedSpans -= spans;
    }
    this.metrics.queueDepthSpans = this.#queuedSpans;
    this.metrics.trialsOpen = this.#grouper.openCount;
    this.#admitWaiter();
  }

  /** Queues each trial handed out for scoring (a newer version of a queued trial takes its place). */
  #enqueue(ready: readonly LiveReadyTrial[], now: number): void {
    for (const trial of ready) {
      const queued = this.#jobs.get(trial.key);
      const reason = queued === undefined ? trial.reason : worstReason(queued.reason, trial.reason);
      const readyAtMs = queued?.readyAtMs ?? now;
      if (queued !== undefined) this.#jobs.delete(trial.key);
      this.#jobs.set(trial.key, { ...trial, reason, readyAtMs });
    }
    this.metrics.scoringQueueTrials = this.#pendingTrials();
  }

  #unscored(key: string, error: unknown): void {
    this.#unscoredTrials += 1;
    if (this.#unscoredTrials === 1)
      this.#report(`trial key '${printableKey(key)}' could not be scored: ${messageOf(error)}`);
  }

  /**
   * Hands queued trials to the scoring stage while fewer than `concurrency` are in it, in slices of
   * about {@link SCORING_SLICE_MS} of one event-loop turn: a scoring whose metrics resolve at once
   * runs to its end in microtasks, so handing over every due trial in one turn would keep the
   * receivers waiting for all of them; past the slice the next one goes in a later turn, after I/O.
   * A slice of its own (`fresh`) starts at least one trial, however late its turn came. Each trial
   * is built and planned here, inside the slices, not when it completes: the trials completing
   * together (hundreds per completion tick at high rates) would otherwise all be built in one turn.
   * A trial that cannot be built or planned is reported and not scored; the run goes on.
   */
  #pump(fresh = false): void {
    while (this.#running.size < this.config.concurrency && this.#jobs.size > 0) {
      if (!fresh && performance.now() - this.#sliceStart >= SCORING_SLICE_MS) {
        if (!this.#pumpScheduled) {
          this.#pumpScheduled = true;
          setImmediate(() => {
            this.#pumpScheduled = false;
            this.#sliceStart = performance.now();
            this.#pump(true);
          });
        }
        return;
      }
      fresh = false;
      const queued = this.#jobs.values().next().value!;
      this.#jobs.delete(queued.key);
      let job: RunningJob;
      try {
        const item = queued.build();
        job = { ...queued, item, plan: this.planner(item) };
        // the output text is kept with the trial: read now, the metrics' candidates get a plain value
        if (item.trial.output !== null) void item.trial.output.output_text;
      } catch (error) {
        this.#unscored(queued.key, error);
        continue;
      }
      this.#running.set(job.item, job);
      this.#scoring.next(job.item);
    }
    this.#notifyIdle();
  }

  /** A scored trial passed the sinks: it becomes the trial's latest version in the live state. */
  #keep(scored: ScoredTrial): void {
    const job = this.#running.get(scored.item)!;
    this.#running.delete(scored.item);
    const now = this.nowMs();
    try {
      const version = this.#state.put(job.key, scored, job.reason);
      if (version === 1) this.metrics.trialsScored += 1;
      else this.metrics.trialsRescored += 1;
    } catch (error) {
      // one trial's records broke the summary: that trial is reported, the run goes on
      this.#unscored(job.key, error);
    }
    // its spans go back to their requests' bytes until late spans (or a re-scoring) need them
    if (!this.#jobs.has(job.key)) this.#grouper.release(job.key);
    this.#scoredAt.delete(job.key);
    this.#scoredAt.set(job.key, now);
    this.metrics.observeLatency(now - job.readyAtMs);
    this.metrics.scoringQueueTrials = this.#pendingTrials();
    this.#admitWaiter();
    this.#pump();
    this.#notifyIdle();
  }

  /**
   * A sink as the live road writes it: a sink whose write fails is reported and written to no more
   * (the others and the live state go on). Trials reach it with their completion note already added.
   * Flush and shutdown are the run's (`openLiveRun`), after the stream.
   */
  #tolerant(sink: Sink<ScoredTrial>): Sink<ScoredTrial> {
    let failed = false;
    return {
      write: async (scored) => {
        if (failed) return;
        try {
          await sink.write(scored);
        } catch (error) {
          failed = true;
          this.sinkFailed(error);
        }
      },
      flush: async () => undefined,
      shutdown: async () => undefined,
    };
  }

  #notifyIdle(): void {
    if (this.#queuedSpans !== 0 || this.#queue.length !== 0 || this.#pendingTrials() !== 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** `resourceSpans` without the `refused` spans (a request with refused spans is rebuilt once). */
function without(
  resourceSpans: readonly OtlpResourceSpans[],
  refused: ReadonlySet<OtlpSpan>,
): OtlpResourceSpans[] {
  return resourceSpans.map((rs) => ({
    ...rs,
    scopeSpans: rs.scopeSpans.map((ss) => ({ ...ss, spans: ss.spans.filter((span) => !refused.has(span)) })),
  }));
}

/** A request without the spans `acceptRequest` refuses by themselves (invalid ids, nested too deeply). */
function acceptable(request: OtlpExportRequest): OtlpExportRequest {
  const refused = new Set<OtlpSpan>();
  const decoderRefused = decoderRefusals(request);
  const shared = new SharedAttributeChecks();
  for (const rs of request.resourceSpans)
    for (const ss of rs.scopeSpans)
      for (const span of ss.spans) if (ownRefusal(span, decoderRefused, shared) !== null) refused.add(span);
  return refused.size === 0
    ? request
    : { ...request, resourceSpans: without(request.resourceSpans, refused) };
}

/**
 * The spans the decoder emptied a value of for its depth (OTLP/JSON past `MAX_ANY_VALUE_DEPTH`), by
 * `traceId:spanId`, with what and where; null when there is none. Such a span is refused, as one
 * `tooDeepAttribute` finds.
 */
function decoderRefusals(request: OtlpExportRequest): Map<string, string> | null {
  let out: Map<string, string> | null = null;
  for (const issue of request.issues ?? [])
    if (issue.code === 'nesting_too_deep')
      (out ??= new Map()).set(
        `${issue.traceId}:${issue.spanId}`,
        `${issue.message.replace(/: value refused \(read as empty\)$/, '')} (${issue.field})`,
      );
  return out;
}

/**
 * Why a span is refused by itself: '' for an invalid trace or span id (empty, all zero, wrong length), what is nested too deeply (as
 * the decoder or `tooDeepAttribute` says), or null when it is not.
 */
function ownRefusal(
  span: OtlpSpan,
  decoderRefused: Map<string, string> | null,
  shared: SharedAttributeChecks,
): string | null {
  if (!isValidOtlpId(span.traceId, 16) || !isValidOtlpId(span.spanId, 8)) return '';
  return decoderRefused?.get(`${span.traceId}:${span.spanId}`) ?? tooDeepAttribute(span, shared);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A trial key as the grouper builds it (`key\u0000<id>` or `trace\u0000<trace id>`), for messages. */
function printableKey(key: string): string {
  return key.slice(key.indexOf('\u0000') + 1);
}

function worstReason(a: ReadyReason, b: ReadyReason): ReadyReason {
  const rank: Record<ReadyReason, number> = { ended: 0, 'late-spans': 1, 'idle-timeout': 2, shutdown: 3 };
  return rank[a] >= rank[b] ? a : b;
}

/** `scored` with `note` added to each score's diagnostics (itself when there is no note). */
function withNote(scored: ScoredTrial, note: Diagnostic | null): ScoredTrial {
  if (note === null) return scored;
  return { ...scored, scores: scored.scores.map((s) => ({ ...s, diagnostics: [...s.diagnostics, note] })) };
}

function completionDiagnostic(trialId: string, reason: ReadyReason, idleMs: number): Diagnostic | null {
  const message =
    reason === 'idle-timeout'
      ? `trial '${trialId}' had no end span; scored after ${idleMs} ms without new spans`
      : reason === 'shutdown'
        ? `trial '${trialId}' was still open at shutdown; scored as incomplete`
        : null;
  if (message === null) return null;
  return { severity: 'warning', message, source: 'evalstream.serve', details: { completion: reason } };
}
