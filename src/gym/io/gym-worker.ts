/**
 * Worker thread of {@link GymWorkerPool}. A `scan` job lists byte ranges of the inputs: the worker
 * reads them one after the other (stopping at the first error) and posts `{ results }` with the
 * tables' buffers transferred. A `merge` job writes the merged file (`writeMergedRollouts`) and posts
 * `{}` or `{ error }`.
 */
import { parentPort } from 'node:worker_threads';
import type { GymScanJob } from './gym-worker-pool.js';
import { scanRolloutRange, type ScanRangeResult } from './scan-rollout-range.js';
import { writeMergedRollouts, type MergeSource } from './write-merged-rollouts.js';

interface Job {
  scan?: GymScanJob;
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
      const scan = job.scan as GymScanJob;
      const results: ScanRangeResult[] = [];
      const buffers: ArrayBuffer[] = [];
      for (const r of scan.ranges) {
        const result = await scanRolloutRange(scan.files[r.file] as string, r, scan.options);
        results.push(result);
        if (!('table' in result)) break;
        for (const v of Object.values(result.table))
          if (ArrayBuffer.isView(v)) buffers.push(v.buffer as ArrayBuffer);
      }
      port.postMessage({ results }, buffers);
    })();
  });
}
