import { Observable } from 'rxjs';
import { newRunId } from '../bundle/new-run-id.js';
import type { EvalstreamConfig } from '../config/evalstream-config.js';
import { parseConfig } from '../config/parse-config.js';
import type { BuiltinMetricEntry } from '../metrics/builtin-registry.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TrialItem } from '../model/trial-item.js';
import { scoreTrials } from '../operators/score-trials.js';
import type { Sink } from '../sinks/sink.js';
import { createTrialPlanner } from './create-trial-planner.js';
import { PullSource } from './pull-source.js';
import { writeToSinks } from './write-to-sinks.js';

/** Options of {@link buildPipeline}. */
export interface BuildPipelineOptions {
  source: Observable<TrialItem>;
  /** Every scored trial is written to each of these (one fan-out point), then re-emitted. */
  sinks: readonly Sink<ScoredTrial>[];
  /** A parsed config; default: no config (evidence-chosen metrics, concurrency 4, 60 s timeout). */
  config?: EvalstreamConfig;
  configFile?: string;
  /** Default: `config.runId`, else a new `agent-eval-…` id. */
  runId?: string;
  registry?: Readonly<Record<string, BuiltinMetricEntry>>;
  onWarning?: (message: string) => void;
  /**
   * Ends the run early with its error (e.g. on SIGINT), whatever metric is still pending: the trials
   * scored before it are written, then the sinks are aborted as for any failed run.
   */
  interrupt?: Observable<never>;
}

/** A wired, not yet started pipeline: subscribing to `scored$` runs it. */
export interface Pipeline {
  runId: string;
  /** Each trial after every sink wrote it; completes after the sinks are flushed and shut down. */
  scored$: Observable<ScoredTrial>;
}

/**
 * Wires source → `scoreTrials` (metrics per task from the config or the evidence, see
 * `createTrialPlanner`) → `writeToSinks`. Cold: nothing runs until `scored$` is subscribed.
 *
 * @example
 * const { runId, scored$ } = buildPipeline({ source: fromBundle('runs/r1'), sinks: [toRunBundle('out')], config });
 * await lastValueFrom(scored$, { defaultValue: null });
 */
export function buildPipeline(options: BuildPipelineOptions): Pipeline {
  const config = options.config ?? parseConfig({}, '(defaults)');
  const runId = options.runId ?? config.runId ?? newRunId();
  const plan = createTrialPlanner({
    config,
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.registry === undefined ? {} : { registry: options.registry }),
    ...(options.onWarning === undefined ? {} : { onWarning: options.onWarning }),
  });
  const scored$ = options.source.pipe(
    scoreTrials({
      runId,
      plan,
      concurrency: config.scoring.concurrency,
      timeoutMs: config.scoring.timeoutMs,
      failFast: config.scoring.failFast,
    }),
    (scored) => (options.interrupt === undefined ? scored : untilError(scored, options.interrupt)),
    writeToSinks(options.sinks),
  );
  return { runId, scored$ };
}

/**
 * `source`, except that an error of `interrupt` ends it (and unsubscribes from `source`) at once. A
 * `PullSource` stays one, so the sinks downstream keep pulling.
 */
function untilError<T>(source: Observable<T>, interrupt: Observable<never>): Observable<T> {
  if (source instanceof PullSource) {
    const values = source as PullSource<T>;
    return new PullSource(() => pullUntilError(values, interrupt));
  }
  return new Observable<T>((subscriber) => {
    const stop = interrupt.subscribe({ error: (error: unknown) => subscriber.error(error) });
    const inner = source.subscribe(subscriber);
    return () => {
      inner.unsubscribe();
      stop.unsubscribe();
    };
  });
}

/**
 * Pulls `source` until `interrupt` errors. Each pull waits on a promise of its own that the interrupt
 * rejects through `wake`: racing every pull against one long-lived promise (`Promise.race`) would leave
 * a reaction on it per pull, each holding the value it resolved with, so every trial of the run would
 * stay in memory until the end.
 */
async function* pullUntilError<T>(source: AsyncIterable<T>, interrupt: Observable<never>): AsyncGenerator<T> {
  let interrupted: { error: unknown } | null = null;
  let wake: ((error: unknown) => void) | null = null;
  const subscription = interrupt.subscribe({
    error: (error: unknown) => {
      interrupted = { error };
      wake?.(error);
    },
  });
  const iterator = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (interrupted !== null) throw (interrupted as { error: unknown }).error;
      const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
        wake = reject;
        iterator.next().then(resolve, reject);
      });
      wake = null;
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    wake = null;
    subscription.unsubscribe();
    void iterator.return?.()?.catch(() => undefined);
  }
}
