/**
 * Worker thread of {@link GymWorkerPool}. A `scan` job lists byte ranges of the inputs: the worker
 * reads those it claims (`scanClaimedRanges`) and posts `{ results }` with the tables' buffers
 * transferred (not copied). A `merge` job writes the merged file (`writeMergedRollouts`) and posts
 * `{}` or `{ error }`.
 */
import { parentPort } from 'node:worker_threads';
import { scanClaimedRanges, type ClaimedScanJob } from './scan-claimed-ranges.js';
import { writeMergedRollouts, type MergeSource } from './write-merged-rollouts.js';

interface Job {
  scan?: ClaimedScanJob;
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
      const results = await scanClaimedRanges(job.scan as ClaimedScanJob);
      const buffers: ArrayBuffer[] = [];
      for (const [, result] of results) {
        if (!('table' in result)) continue;
        for (const v of Object.values(result.table))
          if (ArrayBuffer.isView(v)) buffers.push(v.buffer as ArrayBuffer);
      }
      port.postMessage({ results }, buffers);
    })();
  });
}
