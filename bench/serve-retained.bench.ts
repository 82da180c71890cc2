/**
 * bench/serve-retained: what a scored trial that `serve` still retains for late spans costs (heap,
 * and the request bodies its spans read), against the same trial once sealed (the baseline, measured
 * in the same run): 10,000 bench/live trials (one 9-span agent trial per export, 8 per task) scored
 * through the receivers' body handler by two engines, one retaining every trial (`--retain-ms` far
 * away, under `--retain-max-trials` 20,000) and one sealing each trial 1 ms after its scoring; heap
 * after full collections, before and after. Run with --expose-gc (`npm run bench` does).
 */
import { decodingBodyHandler } from '../src/serve/decoding-body-handler.js';
import { agentTrialPayloads } from './agent-trial-payloads.js';
import { benchLiveEngine, feedBodies } from './bench-live-engine.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const { payload } = agentTrialPayloads(8);
const trials = 10_000;

/** Heap and array-buffer bytes per trial added by scoring `trials` more trials with `retainMs`. */
async function perTrial(retainMs: number): Promise<{ heap: number; buffers: number }> {
  let now = 0;
  const engine = benchLiveEngine({ settleMs: 200, retainMs }, () => now);
  const handler = decodingBodyHandler(engine);
  const score = async (from: number, to: number): Promise<void> => {
    const bodies = Array.from({ length: to - from }, (_, k) => payload(from + k + 1));
    await feedBodies(engine, handler, bodies, (ms) => (now += ms));
    now += 1000;
    engine.tick();
    await engine.whenIdle();
    engine.tick(); // seals what is due for sealing
  };
  await score(0, 2000);
  gc!();
  gc!();
  const before = process.memoryUsage();
  await score(2000, 2000 + trials);
  gc!();
  gc!();
  const after = process.memoryUsage();
  const scored = engine.metrics.trialsScored;
  if (scored !== 2000 + trials) throw new Error(`scored ${scored} trials, sent ${2000 + trials}`);
  await engine.shutdown();
  return {
    heap: (after.heapUsed - before.heapUsed) / trials,
    buffers: (after.arrayBuffers - before.arrayBuffers) / trials,
  };
}

const sealed = await perTrial(1);
const retained = await perTrial(1e12);
const kB = (n: number): string => (n / 1024).toFixed(2);
console.log(
  `baseline (this run): a sealed trial keeps ${kB(sealed.heap)} kB of heap and ${kB(sealed.buffers)} kB in array buffers`,
);
console.log(
  `serve-retained: a retained trial keeps ${kB(retained.heap)} kB of heap (${(retained.heap / sealed.heap).toFixed(1)}× the sealed one) ` +
    `and ${kB(retained.buffers)} kB in array buffers (its request's body, read by its spans); ${trials} trials, one per export`,
);
