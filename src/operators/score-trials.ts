import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { scoreTrial } from '../metrics/score-trial.js';
import type { ScoreRecord } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TrialItem } from '../model/trial-item.js';
import { PullSource } from '../pipeline/pull-source.js';
import type { TrialPlan } from '../pipeline/create-trial-planner.js';

/** Options of {@link scoreTrials}. */
export interface ScoreTrialsOptions {
  runId: string;
  /** The task, metrics and row index of an item; called once per item, in input order. May throw (stops the run). */
  plan: (item: TrialItem) => TrialPlan;
  /** Trials scored at once. Default 4. */
  concurrency?: number;
  /** Per-metric time limit in ms; null or 0 = none. Default none. */
  timeoutMs?: number | null;
  /** Error the stream on the first metric error instead of recording a failed score. Default false. */
  failFast?: boolean;
}

/**
 * Scores each trial with its planned metrics (see `scoreTrial`): one `ScoredTrial` per input item, in
 * input order, so runs are deterministic whatever the metric timings. Up to `concurrency` trials are in
 * flight; a finished trial keeps its slot until every earlier one is emitted. A failing or slow metric
 * is a failed score and never stops the others; the stream errors only with `failFast`, when `plan`
 * throws, or when the source errors: that error is passed through unchanged after the trials read
 * before it have been scored and emitted.
 *
 * Backpressure: when the source is a `PullSource` (every file source is), the result is one too, and
 * the next trial is pulled from the source only when fewer than `concurrency` trials are in flight and
 * the consumer has asked for the next result: a slow metric or a slow sink slows the reading, and at
 * most `concurrency` trials are held. A plain Observable cannot be paused: what it pushes beyond
 * `concurrency` waits in a queue.
 *
 * @example
 * items$.pipe(scoreTrials({ runId, plan, concurrency: 8, timeoutMs: 60_000 })).subscribe(write);
 */
export function scoreTrials(options: ScoreTrialsOptions): OperatorFunction<TrialItem, ScoredTrial> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
  }
  return (source) => {
    if (source instanceof PullSource) {
      const items = source as PullSource<TrialItem>;
      return new PullSource(() => scorePulled(items, options, concurrency));
    }
    return new Observable<ScoredTrial>((subscriber) => {
      const scoring = new OrderedScoring(options, concurrency, subscriber);
      const subscription = source.subscribe({
        next: (item) => scoring.push(item),
        // held back until the trials already read are scored and emitted
        error: (error: unknown) => scoring.end({ error }),
        complete: () => scoring.end(null),
      });
      scoring.onStop(() => subscription.unsubscribe());
      return () => {
        scoring.stop();
        subscription.unsubscribe();
      };
    });
  };
}

/** Starts scoring one trial (`plan` and `scoreTrial` may throw: that stops the run). */
function startScoring(item: TrialItem, plan: TrialPlan, options: ScoreTrialsOptions): Promise<ScoreRecord[]> {
  return scoreTrial(item, plan.task, plan.metrics, {
    runId: options.runId,
    rowIndex: plan.rowIndex,
    timeoutMs: options.timeoutMs ?? null,
    failFast: options.failFast ?? false,
  });
}

/**
 * The pull side of `scoreTrials`: reads the next item only while fewer than `concurrency` are in
 * flight, and yields the oldest once it is scored (the generator is suspended, reading nothing, while
 * the consumer works on it).
 */
async function* scorePulled(
  source: AsyncIterable<TrialItem>,
  options: ScoreTrialsOptions,
  concurrency: number,
): AsyncGenerator<ScoredTrial> {
  const iterator = source[Symbol.asyncIterator]();
  const inFlight: Promise<ScoredTrial>[] = [];
  let sourceError: { error: unknown } | null = null;
  let ended = false;
  try {
    for (;;) {
      while (!ended && inFlight.length < concurrency) {
        let next: IteratorResult<TrialItem>;
        try {
          next = await iterator.next();
        } catch (error) {
          // held back until the trials already read are scored and emitted
          sourceError = { error };
          ended = true;
          break;
        }
        if (next.done === true) {
          ended = true;
          break;
        }
        const item = next.value;
        const plan = options.plan(item);
        const scored = startScoring(item, plan, options).then((scores) => ({
          item,
          scores,
          task: plan.task,
        }));
        // observed now, awaited in order below: a failFast rejection behind an earlier error is not lost
        scored.catch(() => undefined);
        inFlight.push(scored);
      }
      const head = inFlight.shift();
      if (head === undefined) break;
      yield await head;
    }
  } finally {
    if (!ended) await iterator.return?.();
  }
  if (sourceError !== null) throw sourceError.error;
}

interface Slot {
  readonly item: TrialItem;
  readonly plan: TrialPlan;
  scores: ScoreRecord[] | null;
}

/**
 * The state of one subscription of `scoreTrials`: slots in input order (started, finished or waiting
 * for a free slot); a finished trial keeps its slot until every earlier one is emitted, so at most
 * `concurrency` trials are in flight or held.
 */
class OrderedScoring {
  readonly #options: ScoreTrialsOptions;
  readonly #concurrency: number;
  readonly #subscriber: Subscriber<ScoredTrial>;
  /** Slots in input order; emitted ones are cleared at once (the queue starts at `#head`). */
  readonly #slots: (Slot | null)[] = [];
  /** Position in `#slots` of the first slot not yet started. */
  #nextStart = 0;
  #head = 0;
  #active = 0;
  #end: { error: unknown } | null | undefined = undefined;
  #stopped = false;
  #onStop: (() => void) | null = null;

  constructor(options: ScoreTrialsOptions, concurrency: number, subscriber: Subscriber<ScoredTrial>) {
    this.#options = options;
    this.#concurrency = concurrency;
    this.#subscriber = subscriber;
  }

  onStop(stop: () => void): void {
    if (this.#stopped) stop();
    else this.#onStop = stop;
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#slots.length = 0;
    const stop = this.#onStop;
    this.#onStop = null;
    stop?.();
  }

  push(item: TrialItem): void {
    if (this.#stopped) return;
    let plan: TrialPlan;
    try {
      plan = this.#options.plan(item);
    } catch (error) {
      this.#error(error);
      return;
    }
    this.#slots.push({ item, plan, scores: null });
    this.#startMore();
  }

  end(end: { error: unknown } | null): void {
    if (this.#stopped || this.#end !== undefined) return;
    this.#end = end;
    this.#finishIfDone();
  }

  #startMore(): void {
    while (!this.#stopped && this.#active < this.#concurrency && this.#nextStart < this.#slots.length) {
      const slot = this.#slots[this.#nextStart] as Slot;
      this.#nextStart += 1;
      this.#active += 1;
      let run: Promise<ScoreRecord[]>;
      try {
        run = startScoring(slot.item, slot.plan, this.#options);
      } catch (error) {
        this.#error(error);
        return;
      }
      run.then(
        (scores) => this.#done(slot, scores),
        (error: unknown) => this.#error(error),
      );
    }
  }

  #done(slot: Slot, scores: ScoreRecord[]): void {
    if (this.#stopped) return;
    slot.scores = scores;
    // emit every finished trial at the head, in input order
    while (!this.#stopped && this.#head < this.#slots.length) {
      const head = this.#slots[this.#head] as Slot;
      if (head.scores === null) break;
      // drop the emitted trial now: its spans and the bytes they point into can go
      this.#slots[this.#head] = null;
      this.#head += 1;
      this.#active -= 1;
      this.#subscriber.next({ item: head.item, scores: head.scores, task: head.plan.task });
    }
    if (this.#stopped) return;
    if (this.#head >= 256 && this.#head * 2 > this.#slots.length) {
      this.#slots.splice(0, this.#head);
      this.#nextStart -= this.#head;
      this.#head = 0;
    }
    this.#startMore();
    this.#finishIfDone();
  }

  #finishIfDone(): void {
    if (this.#stopped || this.#end === undefined || this.#head < this.#slots.length) return;
    const end = this.#end;
    this.stop();
    if (end === null) this.#subscriber.complete();
    else this.#subscriber.error(end.error);
  }

  #error(error: unknown): void {
    if (this.#stopped) return;
    this.stop();
    this.#subscriber.error(error);
  }
}
