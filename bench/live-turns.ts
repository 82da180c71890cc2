/**
 * bench/live-turns: how long a request waits for the event loop while `serve` works at bench/live's
 * rate, without HTTP: one process feeds the live engine export requests of 50 trials (9 spans each,
 * `agent-trial-payloads.ts`) through the receivers' body handler, one request per turn of the event
 * loop, the clock moving 0.18 ms per trial (50,000 spans/s), completion as `serve`'s defaults
 * (`--settle-ms 2000`, a completion tick every 250 ms). Between two requests runs whatever the engine
 * does in between (grouping, the completion tick, scoring slices, garbage collection): the gap is the
 * time a request arriving then would wait before it is read, the part of bench/live's p99 that is
 * the engine's own.
 * Prints one JSON line: trials, CPU seconds, the gap between consecutive requests (p50, p99, max, ms)
 * and the completion tick's own time (p50, max, ms). `node --import tsx bench/live-turns.ts [TRIALS]`
 * (default 30000); run it in two trees, alternating, to compare builds.
 */
import { decodingBodyHandler } from '../src/serve/decoding-body-handler.js';
import { agentTrialPayloads } from './agent-trial-payloads.js';
import { benchLiveEngine } from './bench-live-engine.js';

const trials = Number(process.argv[2] ?? 30000);
const perRequest = 50;
const trialMs = 0.18;
const tickMs = 250;
const { payload } = agentTrialPayloads(8);
const bodies = Array.from({ length: Math.ceil(trials / perRequest) }, (_, b) =>
  Buffer.concat(
    Array.from({ length: Math.min(perRequest, trials - b * perRequest) }, (_, i) =>
      payload(b * perRequest + i + 1),
    ),
  ),
);

let now = 0;
const engine = benchLiveEngine({ settleMs: 2000, retainMs: 300000 }, () => now);
const handler = decodingBodyHandler(engine);
const gaps: number[] = [];
const ticks: number[] = [];
let nextTick = tickMs;
let last = performance.now();
const cpu0 = process.cpuUsage();
for (const body of bodies) {
  gaps.push(performance.now() - last);
  // a copy, as a receiver reads each body into memory of its own
  const outcome = handler.acceptBody(Buffer.from(body), 'protobuf');
  if (outcome instanceof Promise || 'saturated' in outcome || 'undecodable' in outcome)
    throw new Error('the engine refused a request');
  last = performance.now();
  now += perRequest * trialMs;
  if (now >= nextTick) {
    nextTick += tickMs;
    engine.tick();
    ticks.push(performance.now() - last);
  }
  await new Promise((resolve) => setImmediate(resolve));
}
now += 5000;
engine.tick();
await engine.shutdown();
const cpu = process.cpuUsage(cpu0);
const scored = engine.finalTrials().length;
if (scored !== trials) throw new Error(`engine returned ${scored} trials, sent ${trials}`);

const at = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
};
console.log(
  JSON.stringify({
    trials,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    gapP50: at(gaps, 0.5),
    gapP99: at(gaps, 0.99),
    gapMax: at(gaps, 1),
    tickP50: at(ticks, 0.5),
    tickMax: at(ticks, 1),
  }),
);
