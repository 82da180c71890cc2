import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/start-module-worker.js';
import type { AggregateRolloutsOptions, AggregateRolloutsResult } from './aggregate-rollouts.js';
import { GymInputError, type GymInputErrorCode } from './gym-input-error.js';

/** What {@link aggregateRolloutsInWorker} sends its worker (plain data: hooks go as a module path). */
export interface AggregateInWorkerJob {
  options: Omit<AggregateRolloutsOptions, 'hooks' | 'log' | 'warn'>;
  /** Module exporting `computeMetrics` / `getKeyMetrics` (`loadGymHooks`), loaded in the worker. */
  hooksModule?: string | undefined;
  passAtK?: { answerKey?: string | undefined } | undefined;
}

/** The part of {@link AggregateRolloutsResult} that crosses threads (no table, no agents). */
export type AggregateInWorkerResult = Pick<
  AggregateRolloutsResult,
  | 'files'
  | 'skippedFiles'
  | 'rows'
  | 'mergedPath'
  | 'metricsPath'
  | 'warnings'
  | 'scanWorkers'
  | 'mergedInWorker'
>;

interface WorkerError {
  name: string;
  message: string;
  stack?: string;
  code?: GymInputErrorCode;
  file?: string;
  line?: number;
  field?: string;
}

type WorkerMessage =
  { log: string } | { warn: string } | { done: AggregateInWorkerResult } | { error: WorkerError };

/**
 * V8 flag for the worker's isolate. V8 reads it when an isolate is created, so it must be set before
 * the worker starts; setting it later does not change a running isolate (the main thread's, here).
 */
const SYNC_OPTIMIZING = '--no-concurrent-recompilation';

/**
 * Runs {@link aggregateRollouts} in a worker thread whose V8 isolate compiles optimized code on its own
 * thread instead of on a background one, and resolves to the serializable part of its result; `log`
 * and `warn` lines arrive here in order. A run is one pass over every function with millions of
 * values: with background compilation, optimized code for the statistics and the metrics file is
 * late while the merge worker and the compiler thread share this machine's cores (2 here). Measured
 * on the 200k-rollout bench, this shortens the statistics phase by ~0.1 s and the whole run by
 * 0.13–0.2 s (docs/history/gym-speed.md, stop 16). The flag is set for the process: isolates created
 * after this call (the scan workers, which the worker starts) get it too; running isolates keep
 * theirs.
 *
 * Input problems reject with a {@link GymInputError} carrying the worker's code, file, line and field;
 * other errors with an `Error` of the worker's message and stack. Resolves to null when the worker
 * cannot start (run {@link aggregateRollouts} in this thread then).
 *
 * @example
 * const result = await aggregateRolloutsInWorker({ options: { inputGlob: 'r-*.jsonl', output: 'm.jsonl' } }, console.log);
 */
export async function aggregateRolloutsInWorker(
  job: AggregateInWorkerJob,
  log: (line: string) => void = () => {},
  warn: (text: string) => void = () => {},
): Promise<AggregateInWorkerResult | null> {
  setFlagsFromString(SYNC_OPTIMIZING);
  let worker: Worker;
  try {
    worker = startModuleWorker(import.meta.url, 'aggregate-rollouts-worker', { workerData: job });
  } catch {
    return null;
  }
  return await new Promise<AggregateInWorkerResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (m: WorkerMessage) => {
      if ('log' in m) log(m.log);
      else if ('warn' in m) warn(m.warn);
      else if ('done' in m) settle(() => resolve(m.done));
      else settle(() => reject(rebuild(m.error)));
    });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`the gym aggregate worker exited with code ${code} before finishing`))),
    );
  });
}

/** The worker's error as this thread's: a {@link GymInputError} again, or an `Error` with its stack. */
function rebuild(e: WorkerError): Error {
  if (e.name === 'GymInputError' && e.code !== undefined) {
    return new GymInputError(e.code, e.message, {
      ...(e.file === undefined ? {} : { file: e.file }),
      ...(e.line === undefined ? {} : { line: e.line }),
      ...(e.field === undefined ? {} : { field: e.field }),
    });
  }
  const error = new Error(e.message);
  error.name = e.name;
  if (e.stack !== undefined) error.stack = e.stack;
  return error;
}
