/**
 * Worker thread of {@link loadRolloutFiles}: scans one byte range of a rollout file into its own
 * table and posts the table (typed-array buffers transferred) and the range's line count, or the
 * parts of the first line error so the main thread can rebuild it with the file's line number.
 */
import { parentPort } from 'node:worker_threads';
import { createGymKeys } from '../rows/gym-keys.js';
import { RolloutTable } from '../rows/rollout-table.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import type { RolloutLineErrorParts } from './rollout-line-error.js';

/** A job: scan `[start, end)` of `path`. */
interface ScanJob {
  id: number;
  path: string;
  start: number;
  end: number;
  options: LoadRolloutFileOptions;
}

const port = parentPort;
if (port !== null) {
  port.on('message', (job: ScanJob) => {
    void (async () => {
      const table = new RolloutTable(createGymKeys());
      try {
        const { lines } = await loadRolloutFile(job.path, 0, table, job.options, {
          start: job.start,
          end: job.end,
          firstLine: 1,
        });
        const t = table.toTransfer();
        const buffers = Object.values(t)
          .filter((v): v is ArrayBufferView => ArrayBuffer.isView(v))
          .map((v) => v.buffer as ArrayBuffer);
        port.postMessage({ id: job.id, lines, table: t }, buffers);
      } catch (error) {
        const parts = (error as { parts?: RolloutLineErrorParts }).parts;
        port.postMessage({
          id: job.id,
          parts: parts ?? null,
          message: (error as Error).message ?? String(error),
        });
      }
    })();
  });
  port.postMessage({ ready: true });
}
