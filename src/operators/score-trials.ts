import {
  BehaviorSubject,
  catchError,
  concat,
  defer,
  EMPTY,
  filter,
  from,
  map,
  mergeMap,
  take,
  throwError,
  type OperatorFunction,
} from 'rxjs';
import { scoreTrial } from '../metrics/score-trial.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TrialItem } from '../model/trial-item.js';
import type { TrialPlan } from '../pipeline/trial-plan.js';

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
 * flight; a finished trial keeps its slot until every earlier one is emitted (memory stays bounded by
 * `concurrency`). A failing or slow metric is a failed score and never stops the others; the stream
 * errors only with `failFast`, when `plan` throws, or when the source errors: that error is passed
 * through unchanged after the trials read before it have been scored and emitted.
 *
 * @example
 * items$.pipe(scoreTrials({ runId, plan, concurrency: 8, timeoutMs: 60_000 })).subscribe(write);
 */
export function scoreTrials(options: ScoreTrialsOptions): OperatorFunction<TrialItem, ScoredTrial> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
  }
  return (source) =>
    defer(() => {
      // Index of the next item allowed out; each result waits for its turn.
      const turn = new BehaviorSubject(0);
      // A source error is held back until the trials already read are scored and emitted.
      let sourceError: { error: unknown } | null = null;
      const held = source.pipe(
        catchError((error: unknown) => {
          sourceError = { error };
          return EMPTY;
        }),
      );
      const scored = held.pipe(
        map((item, index) => ({ item, index, plan: options.plan(item) })),
        mergeMap(
          ({ item, index, plan }) =>
            from(
              scoreTrial(item, plan.task, plan.metrics, {
                runId: options.runId,
                rowIndex: plan.rowIndex,
                timeoutMs: options.timeoutMs ?? null,
                failFast: options.failFast ?? false,
              }),
            ).pipe(
              mergeMap((scores) =>
                concat(
                  turn.pipe(
                    filter((next) => next === index),
                    take(1),
                    map((): ScoredTrial => ({ item, scores, task: plan.task })),
                  ),
                  // runs once the value above has reached the subscriber
                  defer(() => {
                    turn.next(index + 1);
                    return EMPTY;
                  }),
                ),
              ),
            ),
          concurrency,
        ),
      );
      return concat(
        scored,
        defer(() =>
          sourceError === null ? EMPTY : throwError(() => (sourceError as { error: unknown }).error),
        ),
      );
    });
}
