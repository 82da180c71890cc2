import { loadConfig } from '../config/load-config.js';
import { parseConfig } from '../config/parse-config.js';
import { createTrialPlanner } from '../pipeline/create-trial-planner.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { Sink } from '../sinks/sink.js';
import { toRunBundle } from '../sinks/to-run-bundle.js';
import { bundleReportWriter } from '../bundle/bundle-report-writer.js';
import { newRunId } from '../bundle/new-run-id.js';
import { LiveDuckDBStore } from './live-duckdb-store.js';
import { EvaluationResultEmitter } from './evaluation-result-emitter.js';
import { LiveEngine } from './live-engine.js';

/**
 * What a live run needs to be set up: the options of
 * `evalstream serve` that concern scoring, the store and the bundle.
 */
export interface LiveRunOptions {
  /** Null: a new run id (`agent-eval-<time>-<hex>`) unless the config names one. */
  runId: string | null;
  configFile: string | null;
  out: string | null;
  db: string | null;
  settleMs: number;
  idleTimeoutMs: number;
  endMarker: string | null;
  maxQueuedSpans: number;
  maxPendingTrials: number;
  concurrency: number;
  retainMs: number;
  retainMaxTrials: number;
  flushMs: number;
  trialKeys: string[];
  taskKeys: string[];
  report: boolean;
  /** `--stop-when-width`, or null. */
  stopWhenWidth: number | null;
  /** `--emit-otlp`: where every score is sent as `gen_ai.evaluation.result` log records, or null. */
  emitOtlp?: string | null;
}

/** How a live run ended: the trials scored, and what makes its outputs incomplete (or null). */
export interface LiveRunEnd {
  trials: number;
  problem: string | null;
}

/** An open live run: its engine, and how to end it. */
export interface LiveRun {
  readonly runId: string;
  readonly engine: LiveEngine;
  /**
   * Scores what is left (open trials flushed as incomplete), closes the store and writes the run
   * bundle to `out`, each as far as it can (a failed store does not stop the bundle); resolves with
   * the number of trials scored and what went wrong, if anything. Call after the receivers stopped.
   */
  finish(): Promise<LiveRunEnd>;
}

/**
 * Sets up a live run: loads the config, opens the DuckDB store (`db`) and the `emitOtlp` sink, and
 * makes the engine (not yet started).
 *
 * @example
 * const run = await openLiveRun(options, (m) => process.stderr.write(m));
 * run.engine.start();
 * const trials = await run.finish();
 */
export async function openLiveRun(
  options: LiveRunOptions,
  onWarning: (message: string) => void,
  onProblem: (message: string) => void = onWarning,
): Promise<LiveRun> {
  const config =
    options.configFile === null ? parseConfig({}, 'defaults') : await loadConfig(options.configFile);
  const runId = options.runId ?? config.runId ?? newRunId(new Date());
  const planner = createTrialPlanner({
    config,
    ...(options.configFile === null ? {} : { configFile: options.configFile }),
    onWarning,
  });
  const sinks: Sink<ScoredTrial>[] = [];
  if (options.db !== null) {
    const store = new LiveDuckDBStore(options.db, {
      runId,
      flushMs: Math.max(1, options.flushMs),
      maxBufferedSpans: options.maxQueuedSpans,
      threads: 1,
    });
    await store.open();
    sinks.push(store);
  }
  if (options.emitOtlp != null)
    sinks.push(
      new EvaluationResultEmitter(options.emitOtlp, {
        runId,
        // a send fails in the background: reported at once, not at the next trial's write
        onFailure: (error) => engine.sinkFailed(error),
      }),
    );
  const engine: LiveEngine = new LiveEngine(
    {
      runId,
      completion: {
        settleMs: options.settleMs,
        idleTimeoutMs: options.idleTimeoutMs,
        endMarkerAttribute: options.endMarker,
      },
      trialKeys: options.trialKeys,
      taskKeys: options.taskKeys,
      maxQueuedSpans: options.maxQueuedSpans,
      maxPendingTrials: options.maxPendingTrials,
      concurrency: options.concurrency,
      metricTimeoutMs: config.scoring.timeoutMs ?? 0,
      retryAfterSec: 1,
      retainMs: options.retainMs,
      retainMaxTrials: options.retainMaxTrials,
      tickMs: Math.max(10, Math.min(250, Math.floor(options.settleMs / 4) || 10)),
      onProblem,
      stopWhenWidth: options.stopWhenWidth,
    },
    planner,
    sinks,
  );
  return {
    runId,
    engine,
    async finish(): Promise<LiveRunEnd> {
      const trials = await engine.shutdown();
      const problems: string[] = [];
      for (const sink of sinks) {
        try {
          await sink.shutdown();
        } catch (error) {
          problems.push(`a sink could not be closed cleanly: ${(error as Error).message}`);
        }
      }
      if (options.out !== null) {
        const bundle = toRunBundle(options.out, {
          runId,
          labels: config.labels,
          reportWriter: options.report ? bundleReportWriter : null,
        });
        for (const trial of engine.eachFinalTrial()) await bundle.write(trial);
        await bundle.shutdown();
      }
      const problem = [engine.problem(), ...problems].filter((p) => p !== null).join('; ');
      return { trials, problem: problem === '' ? null : problem };
    },
  };
}
