import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/start-module-worker.js';
import { collectTrialErrors, type TrialErrors } from './collect-trial-errors.js';

/** A running (or deferred) read of a bundle's trial error rollup; see {@link startTrialErrors}. */
export interface PendingTrialErrors {
  /** The rollup; I/O failures reject. Call once. */
  result(): Promise<TrialErrors>;
  /** Stops the worker (if any) when the result is no longer wanted. */
  stop(): void;
}

/**
 * Starts reading `trials.jsonl` for the error rollup (`collectTrialErrors`). With `inWorker` it runs in
 * a worker thread right away, concurrently with the caller's work (a second core reads the trials
 * while the main thread reads the scores); the result is the same data either way. A worker that
 * cannot start or dies without answering falls back to reading on the calling thread. Without
 * `inWorker` nothing happens until `result()` is called.
 *
 * @example
 * const trials = startTrialErrors(dir, { inWorker: true });
 * // ... read scores ...
 * const { ids, types, issues } = await trials.result();
 */
export function startTrialErrors(dir: string, options: { inWorker: boolean }): PendingTrialErrors {
  if (!options.inWorker) return { result: () => collectTrialErrors(dir), stop: () => {} };
  let worker: Worker | null = null;
  let answer: Promise<{ result: TrialErrors } | { fatal: string } | null>;
  try {
    const w = startModuleWorker(import.meta.url, 'trial-errors-worker', { workerData: { dir } });
    worker = w;
    answer = new Promise((resolve) => {
      w.once('message', (m: { result: TrialErrors } | { fatal: string }) => resolve(m));
      w.once('error', () => resolve(null));
      w.once('exit', () => resolve(null));
    });
  } catch {
    answer = Promise.resolve(null);
  }
  return {
    async result() {
      const m = await answer;
      void worker?.terminate();
      worker = null;
      if (m === null) return collectTrialErrors(dir); // the worker could not run: read here
      if ('fatal' in m) throw new Error(m.fatal);
      return m.result;
    },
    stop() {
      void worker?.terminate();
      worker = null;
    },
  };
}
