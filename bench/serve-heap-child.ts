/**
 * Child of bench/serve-heap.bench.ts (run with --expose-gc): what the live state of `serve` keeps on
 * the JavaScript heap per scored trial. Scores `trials` export requests (one 9-span agent trial each,
 * `agent-trial-payloads.ts`, 8 trials per task) through the receivers' body handler, seals them all
 * (so no spans or bodies are retained: what is left is what a server keeps for the whole run), and
 * measures the heap after full collections; then the same again for `trials` more. The difference
 * over `trials` is the heap per kept trial. Baseline in the same process: every kept trial rebuilt
 * as plain objects and held (what keeping the records as they are would cost).
 * Prints one JSON line.
 */
import { decodeExportRequest } from '../src/serve/decode-export-request.js';
import { decodingBodyHandler } from '../src/serve/decoding-body-handler.js';
import { benchLiveEngine, feedBodies } from './bench-live-engine.js';
import { agentTrialPayloads } from './agent-trial-payloads.js';

const trials = Number(process.argv[2] ?? 30000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');
const { payload } = agentTrialPayloads(8);
let now = 0;
const retainMs = 1000;
const engine = benchLiveEngine({ settleMs: 200, retainMs }, () => now);
const handler = decodingBodyHandler(engine, decodeExportRequest);

/** Trials `from` to `to` (exclusive) as export requests. */
function* payloads(from: number, to: number): Generator<Buffer> {
  for (let i = from; i < to; i++) yield payload(i + 1);
}

async function scoreAndSeal(from: number, to: number): Promise<void> {
  await feedBodies(engine, handler, payloads(from, to), (ms) => (now += ms));
  // past settle-ms (scored), then past retain-ms (sealed: spans and bodies released)
  for (const step of [1000, retainMs + 1000]) {
    now += step;
    engine.tick();
    await engine.whenIdle();
  }
}

function heap(): { used: number; external: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { used: m.heapUsed, external: m.arrayBuffers };
}

await scoreAndSeal(0, trials);
const first = heap();
await scoreAndSeal(trials, 2 * trials);
const second = heap();
const plain = engine.finalTrials();
const third = heap();
if (plain.length !== 2 * trials) throw new Error(`kept ${plain.length} trials, sent ${2 * trials}`);
console.log(
  JSON.stringify({
    trials,
    heapPerTrial: (second.used - first.used) / trials,
    externalPerTrial: (second.external - first.external) / trials,
    plainHeapPerTrial: (third.used - second.used) / plain.length,
    heapAfter: second.used,
  }),
);
