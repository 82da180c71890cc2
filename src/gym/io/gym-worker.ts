/**
 * Worker thread of {@link GymWorkerPool}: scans one byte range of a rollout file into its own table
 * and posts the table (typed-array buffers transferred) and the range's line count, or the parts of
 * the first line error so the main thread can rebuild it with the file's line number; or writes the
 * merged file (`writeMergedRollouts`) and posts `{}` or `{ error }`.
 */
import { parentPort } from 'node:worker_threads';
import { createGymKeys } from '../rows/gym-keys.js';
import { RolloutTable } from '../rows/rollout-table.js';
import type { ScanRangeJob } from './gym-worker-pool.js';
import { loadRolloutFile } from './load-rollout-file.js';
import type { RolloutLineErrorParts } from './rollout-line-error.js';
import { writeMergedRollouts, type MergeSource } from './write-merged-rollouts.js';

interface Job {
  scan?: ScanRangeJob;
  merge?: { source: MergeSource; order: Int32Array; outPath: string };
}

const port = parentPort;
if (port !== null) {
  port.on('message', (job: Job) => {
    void (async () => {
      if (job.merge !== undefined) {
        try {
          writeMergedRollouts(job.merge.source, job.merge.order, job.merge.outPath);
          port.postMessage({});
        } catch (error) {
          port.postMessage({ error: (error as Error).message ?? String(error) });
        }
        return;
      }
      const scan = job.scan as ScanRangeJob;
      const table = new RolloutTable(createGymKeys());
      try {
        const { lines } = await loadRolloutFile(scan.path, 0, table, scan.options, {
          start: scan.start,
          end: scan.end,
          firstLine: 1,
        });
        const t = table.toTransfer();
        const buffers = Object.values(t)
          .filter((v): v is ArrayBufferView => ArrayBuffer.isView(v))
          .map((v) => v.buffer as ArrayBuffer);
        port.postMessage({ lines, table: t }, buffers);
      } catch (error) {
        const parts = (error as { parts?: RolloutLineErrorParts }).parts;
        port.postMessage({ parts: parts ?? null, message: (error as Error).message ?? String(error) });
      }
    })();
  });
  port.postMessage({ ready: true });
}
