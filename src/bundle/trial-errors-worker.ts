/**
 * Worker thread of {@link startTrialErrors}: reads `trials.jsonl` of the bundle in `workerData.dir`
 * with `collectTrialErrors` and posts `{ result }` (a `TrialErrors`) or `{ fatal }` (an I/O error's
 * message).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectTrialErrors } from './collect-trial-errors.js';

const port = parentPort;
const dir = (workerData as { dir?: unknown } | null)?.dir;
if (port !== null && typeof dir === 'string') {
  collectTrialErrors(dir).then(
    (result) => port.postMessage({ result }),
    (error: unknown) => port.postMessage({ fatal: error instanceof Error ? error.message : String(error) }),
  );
}
