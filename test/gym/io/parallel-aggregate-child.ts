// Run by load-rollout-files.test.ts in a child `node --import tsx` (worker threads need the TS loader):
// aggregates argv[2] into argv[3] with two scan workers and prints the result or the error as JSON.
import { aggregateRollouts } from '../../../src/gym/aggregate-rollouts.js';

const [input, output] = process.argv.slice(2) as [string, string];
try {
  const r = await aggregateRollouts({
    inputGlob: input,
    output,
    parallel: { workers: 2, minBytes: 0, pieceBytes: 64 << 10 },
  });
  process.stdout.write(JSON.stringify({ rows: r.rows, warnings: r.warnings, scanWorkers: r.scanWorkers }));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: (error as Error).message }));
}
