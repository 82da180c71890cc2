// Run by load-rollout-files.test.ts in a child `node --import tsx` (worker threads need the TS loader):
// aggregates argv[2] into argv[3] with two threads and prints the result or the error as JSON. With
// argv[4] = 'pass-at-k' the run keeps per-row extras, so it scans in this thread and only merges in a
// worker.
import { aggregateRollouts } from '../../../src/gym/aggregate-rollouts.js';

const [input, output, mode] = process.argv.slice(2) as [string, string, string | undefined];
try {
  const r = await aggregateRollouts({
    inputGlob: input,
    output,
    // small ranges: both threads claim many of them, in an order that varies from run to run
    parallel: { workers: 2, minBytes: 0, rangeBytes: 16 << 10 },
    ...(mode === 'pass-at-k' ? { hooks: { passAtK: {} } } : {}),
  });
  process.stdout.write(
    JSON.stringify({
      rows: r.rows,
      warnings: r.warnings,
      scanWorkers: r.scanWorkers,
      mergedInWorker: r.mergedInWorker,
    }),
  );
} catch (error) {
  process.stdout.write(JSON.stringify({ error: (error as Error).message }));
}
