/**
 * bench/serve-engine: the CPU that `evalstream serve` spends per span after reading a request's body
 * (decode, assembly, completion, scoring with the default metrics, live state, shutdown), without
 * HTTP and without other load on the machine: the part of bench/live's figure that is serve's own
 * code, measured far more steadily than an end-to-end run on a busy 2-core machine can be (±30 %).
 * Each mode runs in fresh child processes (`serve-engine-child.ts`), pinned to one core when taskset
 * exists (the garbage collector's helper threads then share that core, so wall time is all the
 * CPU), alternated SERVE_ENGINE_BENCH_ROUNDS times (default 3); figures are medians.
 *   baseline (same run): decoding the same requests and reading every span's attribute values.
 * Prints spans/s on one core, µs of CPU per span (all threads, and the main thread alone: the rest is
 * mostly the garbage collector's parallel and concurrent work), and the ratio to the baseline.
 * SERVE_ENGINE_BENCH_TRIALS (default 20000 trials of 9 spans) sets the size;
 * SERVE_ENGINE_BENCH_SETTLE_MS (default 200) and SERVE_ENGINE_BENCH_RETAIN_MS (default 300000) are
 * the engine's `--settle-ms` and `--retain-ms`, to measure what holding pending and scored trials
 * costs. SERVE_ENGINE_BENCH_TRIALS_PER_REQUEST (default 1; bench/live sends 50) puts several trials in
 * one request; SERVE_ENGINE_BENCH_TRIAL_MS (default 1) is how far the clock moves per trial (0.18 is
 * bench/live's 50,000 spans/s). Node flags for the children: SERVE_ENGINE_BENCH_NODE_ARGS (e.g.
 * `--single-threaded-gc`).
 */
import { join } from 'node:path';
import { pandasMedian as median } from '../src/gym/stats/pandas-median.js';
import { pinnedToOneCore, runPinnedChild } from './run-pinned-child.js';

const trials = Number(process.env['SERVE_ENGINE_BENCH_TRIALS'] ?? 20000);
const rounds = Math.max(1, Number(process.env['SERVE_ENGINE_BENCH_ROUNDS'] ?? 3));
const child = join(import.meta.dirname, 'serve-engine-child.ts');

interface ChildResult {
  spans: number;
  wall: number;
  cpu: number;
  mainCpu: number;
}

function runChild(mode: 'decode' | 'engine'): Promise<ChildResult> {
  const nodeArgs = (process.env['SERVE_ENGINE_BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  return runPinnedChild<ChildResult>(
    [...nodeArgs, '--import', 'tsx', child, mode, String(trials)],
    `serve-engine child ${mode}`,
  );
}

const runs: Record<'decode' | 'engine', ChildResult[]> = { decode: [], engine: [] };
for (let r = 0; r < rounds; r++) {
  runs.decode.push(await runChild('decode'));
  runs.engine.push(await runChild('engine'));
}
const spans = runs.engine[0]!.spans;
const med = (xs: number[]): number => median(Float64Array.from(xs), 0, xs.length);
const figure = (list: ChildResult[]) => ({
  spansPerSec: med(list.map((x) => x.spans / x.wall)),
  usPerSpan: med(list.map((x) => (x.cpu / x.spans) * 1e6)),
  mainUsPerSpan: med(list.map((x) => (x.mainCpu / x.spans) * 1e6)),
});
const base = figure(runs.decode);
const engine = figure(runs.engine);
const fmt = (n: number): string => n.toFixed(1);
console.log(
  `serve-engine: ${trials} trials, ${spans} spans, medians of ${rounds} fresh process(es) per mode${pinnedToOneCore ? ', one core (taskset -c 0)' : ''}`,
);
console.log(
  `baseline (this run): decode + read attribute values ${base.spansPerSec.toFixed(0)} spans/s, ${fmt(base.usPerSpan)} µs/span CPU (main thread ${fmt(base.mainUsPerSpan)})`,
);
console.log(
  `engine (decode → assemble → score → live state → shutdown): ${engine.spansPerSec.toFixed(0)} spans/s, ${fmt(engine.usPerSpan)} µs/span CPU ` +
    `(main thread ${fmt(engine.mainUsPerSpan)}, other threads — mostly the garbage collector's helpers — ${fmt(engine.usPerSpan - engine.mainUsPerSpan)}); ` +
    `${(engine.usPerSpan / base.usPerSpan).toFixed(1)}× the baseline's CPU per span`,
);
console.log(
  `  each run, engine spans/s: ${runs.engine.map((x) => (x.spans / x.wall).toFixed(0)).join(', ')}; ` +
    `at 50,000 spans/s the two vCPUs give 40 µs/span for everything (senders, HTTP, this)`,
);
