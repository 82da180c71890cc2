/**
 * Worker thread of {@link GymWorkerPool}. A `scan` job lists byte ranges of the inputs and a shared
 * claim counter: the worker claims the next unclaimed range (as the main thread does), scans it into
 * its table (kept between ranges, see `RangeScanner`) and posts `{ range, result }` (typed-array
 * buffers transferred) or the parts of the range's first line error, until no range is left or some
 * thread has failed; then it posts `{ scanned: true }`. A `merge` job writes the merged file
 * (`writeMergedRollouts`) and posts `{}` or `{ error }`.
 */
import { parentPort } from 'node:worker_threads';
import type { SharedScanJob } from './gym-worker-pool.js';
import { RangeScanner } from './scan-range.js';
import { claimRange, markFailed } from './range-claims.js';
import { giveUpDetachProtector } from '../../util/give-up-detach-protector.js';
import { writeMergedRollouts, type MergeSource } from './write-merged-rollouts.js';

interface Job {
  scan?: SharedScanJob;
  merge?: { source: MergeSource; order: Int32Array; outPath: string };
}

const port = parentPort;
if (port !== null) {
  // this thread transfers every range's columns: settle that before the scan code is optimized
  giveUpDetachProtector();
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
      const scan = job.scan as SharedScanJob;
      const claims = new Int32Array(scan.claims);
      const scanner = new RangeScanner();
      for (
        let id = claimRange(claims, scan.ranges.length);
        id >= 0;
        id = claimRange(claims, scan.ranges.length)
      ) {
        const r = scan.ranges[id]!;
        const result = await scanner.scan(scan.files[r.file] as string, r, scan.options);
        if ('table' in result) {
          const buffers = Object.values(result.table)
            .filter((v): v is ArrayBufferView => ArrayBuffer.isView(v))
            .map((v) => v.buffer as ArrayBuffer);
          port.postMessage({ range: id, result }, buffers);
        } else {
          markFailed(claims);
          port.postMessage({ range: id, result });
        }
      }
      port.postMessage({ scanned: true });
    })();
  });
}
