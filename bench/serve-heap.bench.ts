/**
 * bench/serve-heap: the JavaScript heap that `evalstream serve` keeps per scored trial for the rest
 * of its run (the summary, `/v1/trials/{id}` and the bundle written at shutdown need every trial's
 * latest records). This is what grows with a live run, and what every full garbage collection of
 * the engine's heap marks again, so it decides how a long run at a high rate ages. Measured in a
 * fresh process (`serve-heap-child.ts`, `--expose-gc`) as the growth of the heap after full
 * collections between N and 2N trials scored and sealed (SERVE_HEAP_BENCH_TRIALS, default 30000, of
 * 9 real OTel SDK spans each); also the bytes kept outside the heap (array buffers) per trial.
 *   baseline (same run): the same trials' records held as plain objects (`finalTrials()`).
 */
import { join } from 'node:path';
import { runPinnedChild } from './run-pinned-child.js';

const trials = Number(process.env['SERVE_HEAP_BENCH_TRIALS'] ?? 30000);
interface HeapResult {
  trials: number;
  heapPerTrial: number;
  externalPerTrial: number;
  plainHeapPerTrial: number;
  heapAfter: number;
}
const child = join(import.meta.dirname, 'serve-heap-child.ts');
const r = await runPinnedChild<HeapResult>(
  ['--expose-gc', '--import', 'tsx', child, String(trials)],
  'serve-heap child',
);
const kB = (n: number): string => (n / 1000).toFixed(2);
console.log(`serve-heap: ${trials} then ${2 * trials} trials scored and sealed (9 spans each)`);
console.log(
  `baseline (this run): the kept records as plain objects ${kB(r.plainHeapPerTrial)} kB of heap per trial`,
);
console.log(
  `serve's live state: ${kB(r.heapPerTrial)} kB of heap per kept trial (${(r.heapPerTrial / r.plainHeapPerTrial).toFixed(3)}× the baseline), ` +
    `${kB(r.externalPerTrial)} kB per trial outside the heap (array buffers, not marked by the collector); heap ${(r.heapAfter / 1e6).toFixed(1)} MB after ${2 * trials} trials`,
);
