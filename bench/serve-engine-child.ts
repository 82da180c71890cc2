/**
 * Child of bench/serve-engine.bench.ts: one measured pass over `trials` export requests (one agent
 * trial of 9 spans each, `agent-trial-payloads.ts`, 8 trials per task), in one of two modes:
 *   decode  the baseline: decode each request as `serve` does (`decodeExportRequest`) and read every
 *           span's attribute values (strings decoded: what any receiver scoring these spans must at
 *           least do);
 *   engine  what `serve` does with a request after reading its body, without HTTP: the receivers'
 *           body handler (decode, `acceptRequest`),
 *           assembly, completion timers (an injected clock: 1 ms per trial, a tick every 50
 *           trials, `--settle-ms 200`),
 *           scoring with the default metrics, live state; then `shutdown` (flushes, returns every
 *           trial once). serve's defaults otherwise (`--retain-ms`, `--retain-max-trials`).
 * Prints one JSON line: spans, wall seconds, CPU seconds of the whole process and of its main thread.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { decodeExportRequest } from '../src/serve/decode-export-request.js';
import { decodingBodyHandler } from '../src/serve/decoding-body-handler.js';
import { benchLiveEngine, feedBodies } from './bench-live-engine.js';
import { agentTrialPayloads } from './agent-trial-payloads.js';

const mode = process.argv[2];
const trials = Number(process.argv[3] ?? 20000);
const { template, payload } = agentTrialPayloads(8);
/** SERVE_ENGINE_BENCH_TRIALS_PER_REQUEST=k: k trials per export request (as bench/live's 50-trial exports). */
const perRequest = Math.max(1, Number(process.env['SERVE_ENGINE_BENCH_TRIALS_PER_REQUEST'] ?? 1));
/**
 * SERVE_ENGINE_BENCH_TRIAL_MS: how far the clock moves per trial sent (default 1 ms; bench/live's
 * 50,000 spans/s of 9-span trials is 0.18).
 */
const trialMs = Number(process.env['SERVE_ENGINE_BENCH_TRIAL_MS'] ?? 1);
const bodies = Array.from({ length: Math.ceil(trials / perRequest) }, (_, b) =>
  Buffer.concat(
    Array.from({ length: Math.min(perRequest, trials - b * perRequest) }, (_, i) =>
      payload(b * perRequest + i + 1),
    ),
  ),
);

/** Each body as the receivers read one: `readLimitedBody` copies the socket's chunks into a buffer of the body's length. */
function* received(list: readonly Buffer[]): Generator<Buffer> {
  for (const body of list) {
    const copy = Buffer.allocUnsafe(body.length);
    body.copy(copy);
    yield copy;
  }
}

/** CPU seconds of this process's main thread (from /proc; NaN where unavailable). */
function mainThreadCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

const cpu0 = process.cpuUsage();
const main0 = mainThreadCpu();
const t0 = performance.now();
let checked = 0;
if (mode === 'decode') {
  for (const body of bodies) {
    for (const rs of decodeExportRequest(body, 'protobuf').resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const span of ss.spans)
          for (const { value } of span.attributes.entries())
            if (value.type === 'string') checked += value.value.length;
  }
} else if (mode === 'engine') {
  let now = 0;
  const engine = benchLiveEngine(
    {
      settleMs: Number(process.env['SERVE_ENGINE_BENCH_SETTLE_MS'] ?? 200),
      retainMs: Number(process.env['SERVE_ENGINE_BENCH_RETAIN_MS'] ?? 300000),
    },
    () => now,
  );
  // what serve does with a body once read: decoded (lazily, spans read the body) and accepted
  await feedBodies(
    engine,
    decodingBodyHandler(engine),
    received(bodies),
    (ms) => (now += ms * perRequest * trialMs),
    Math.max(1, Math.round(50 / perRequest)),
  );
  now += 1000;
  engine.tick();
  await engine.shutdown();
  // what serve does next: writes the bundle from every kept trial, rebuilt one at a time
  for (const trial of engine.finalTrials()) checked += trial.scores.length === 0 ? 0 : 1;
  if (checked !== trials) throw new Error(`engine returned ${checked} trials, sent ${trials}`);
  if (engine.metrics.spansReceived !== trials * template.spans)
    throw new Error(`engine counted ${engine.metrics.spansReceived} spans, sent ${trials * template.spans}`);
} else throw new Error(`unknown mode ${mode}`);
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    mode,
    spans: trials * template.spans,
    checked,
    wall,
    cpu: (cpu.user + cpu.system) / 1e6,
    mainCpu: mainThreadCpu() - main0,
    threads: readdirSync('/proc/self/task').length,
  }),
);
