/**
 * Worker thread of {@link aggregateRolloutsInWorker}: runs `aggregateRollouts` with the options in
 * `workerData` (hooks loaded here from their module path) and posts, in order, `{ log }` and
 * `{ warn }` for each line, then `{ done }` with the serializable part of the result, or `{ error }`
 * with the error's name, message, stack and, for a `GymInputError`, its code, file, line and field.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { aggregateRollouts } from './aggregate-rollouts.js';
import type { AggregateInWorkerJob } from './aggregate-rollouts-in-worker.js';
import type { GymHooks } from './compute/gym-hooks.js';
import { GymInputError } from './gym-input-error.js';
import { loadGymHooks } from './load-gym-hooks.js';

const port = parentPort;
if (port !== null) {
  const job = workerData as AggregateInWorkerJob;
  void (async () => {
    try {
      const hooks: GymHooks = job.hooksModule === undefined ? {} : await loadGymHooks(job.hooksModule);
      if (job.passAtK !== undefined) hooks.passAtK = job.passAtK;
      const result = await aggregateRollouts({
        ...job.options,
        hooks,
        log: (line) => port.postMessage({ log: line }),
        warn: (text) => port.postMessage({ warn: text }),
      });
      port.postMessage({
        done: {
          files: result.files,
          skippedFiles: result.skippedFiles,
          rows: result.rows,
          mergedPath: result.mergedPath,
          metricsPath: result.metricsPath,
          warnings: result.warnings,
          scanWorkers: result.scanWorkers,
          mergedInWorker: result.mergedInWorker,
        },
      });
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({
        error: {
          name: e.name,
          message: e.message,
          stack: e.stack,
          ...(e instanceof GymInputError ? { code: e.code, file: e.file, line: e.line, field: e.field } : {}),
        },
      });
    }
  })();
}
