/**
 * bench/live: `evalstream serve` under load from several concurrent OTLP/HTTP protobuf senders on
 * loopback. The server runs in its own process (one core), the senders in this one (the other).
 * Payloads are real OTel SDK output of one agent trial each (`agent-trial-payloads.ts`: an
 * invoke_agent root, chat and tool spans with 500–2000-byte message attributes), made unique per
 * request by patching the trace id, conversation id and task bytes of one template.
 * Each sender is one keep-alive HTTP/1.1 connection driven by a plain socket client, which keeps
 * the load generator's own CPU (printed) low on a 2-core machine.
 * Prints sustained spans/s, p50/p99 export latency (per answer, and per export from its first attempt
 * to its 200, retries after 429 included), server and sender CPU, and spans accepted vs
 * stored (must be equal). LIVE_BENCH_SECONDS (default 60), LIVE_BENCH_SENDERS (default 8),
 * LIVE_BENCH_TRIALS_PER_REQUEST (default 1) and LIVE_BENCH_REPEATS (trials per task, default 8; 0:
 * every trial of one task) tune it. First, for
 * LIVE_BENCH_BASELINE_SECONDS (default 10), the same senders load a bare node:http server: the
 * baseline of the same run that serve's spans/s and CPU per span are compared with. The run's
 * directory is removed at the end unless LIVE_BENCH_KEEP=1.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { agentTrialPayloads } from './agent-trial-payloads.js';
import { newestTs } from './newest-ts.js';

const seconds = Number(process.env['LIVE_BENCH_SECONDS'] ?? 60);
const senders = Number(process.env['LIVE_BENCH_SENDERS'] ?? 8);
/**
 * LIVE_BENCH_TRIALS_PER_REQUEST=k sends k trials (k × 9 spans) per export, as an SDK's
 * BatchSpanProcessor does when many trials end together (it exports up to 512 spans at once);
 * default 1, the smallest export and the hardest case for the receiver.
 */
const perRequest = Math.max(1, Number(process.env['LIVE_BENCH_TRIALS_PER_REQUEST'] ?? 1));
/**
 * LIVE_BENCH_REPEATS=r gives each task r trials (consecutive trials share a task), as an evaluation
 * with r repeats does; 0 puts every trial in one task, so pass@k runs up to k = all trials and the
 * summary written at shutdown grows with the run (tens of MB).
 */
const repeats = Math.max(0, Number(process.env['LIVE_BENCH_REPEATS'] ?? 8));
/** LIVE_BENCH_KEEP=1 keeps the run's directory (bundle, DuckDB file) and prints where it is. */
const keep = process.env['LIVE_BENCH_KEEP'] === '1';
/** LIVE_BENCH_DB=0 runs the server without --db (bundle only); default with --db. */
const withDb = process.env['LIVE_BENCH_DB'] !== '0';
/**
 * LIVE_BENCH_WATCH=1 adds a reader that does what the live page does: one SSE stream, and the summary
 * without `task_metric_values` read at most once a second and once per 20 build times (the server's
 * `Server-Timing`). LIVE_BENCH_WATCH=full reads the whole summary once a second instead.
 */
const watchMode = process.env['LIVE_BENCH_WATCH'];
const watch = watchMode === '1' || watchMode === 'full';
/** Extra node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=prof`. */
const serverNodeArgs = (process.env['LIVE_BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
/** Extra `evalstream serve` options, e.g. `--retain-ms 10000`. */
const serveArgs = (process.env['LIVE_BENCH_SERVE_ARGS'] ?? '').split(' ').filter(Boolean);
/**
 * LIVE_BENCH_RATE=r offers r spans/s in all (open loop) instead of sending as fast as answers come
 * back (closed loop, the default). Each sender has a fixed schedule: its exports are due every
 * `senders × spans per export / r` seconds, the senders' schedules evenly staggered. A sender waits
 * for an export's due time, or sends at once when it is behind; when the server's previous answer
 * held it past the due time, latency is measured from the due time, so a server that falls behind is
 * charged for the wait (no coordinated omission); a sender late only by its own timer is not. This is
 * how "r spans/s sustained with p99 under 100 ms" is measured; closed-loop p99 is queueing by design.
 */
const rate = Number(process.env['LIVE_BENCH_RATE'] ?? 0);
/**
 * LIVE_BENCH_WARMUP_SECONDS=w loads serve for w seconds (same senders and mode) before the measured
 * load: its exports are not in the figures (they are in the accepted = stored check). Default 0.
 */
const warmupSeconds = Number(process.env['LIVE_BENCH_WARMUP_SECONDS'] ?? 0);
const { template, payload } = agentTrialPayloads(repeats);

/**
 * The server runs the built CLI (`bin/evalstream.js`, what users run) when `dist/` is at least as new
 * as every source file, else the sources through tsx (whose module loading adds to the first
 * seconds); LIVE_BENCH_MODE=cli|ts picks one.
 */
const root = join(import.meta.dirname, '..');
const builtCli = join(root, 'dist', 'cli', 'evalstream.js');
/** LIVE_BENCH_CLI=path/to/bin/evalstream.js serves with another build (bench/live-ab.ts: an older revision). */
const otherCli = process.env['LIVE_BENCH_CLI'];
const distFresh = existsSync(builtCli) && statSync(builtCli).mtimeMs >= newestTs(join(root, 'src'));
const mode = otherCli !== undefined ? 'cli' : (process.env['LIVE_BENCH_MODE'] ?? (distFresh ? 'cli' : 'ts'));
if (mode === 'cli' && otherCli === undefined && !distFresh) {
  console.log('dist/ is missing or older than src/: run `npm run build` first');
  process.exit(2);
}
const serverEntry =
  mode === 'cli'
    ? [otherCli ?? join(root, 'bin', 'evalstream.js')]
    : ['--import', 'tsx', join(import.meta.dirname, 'serve-child.ts')];

const dir = await mkdtemp(join(tmpdir(), 'evalstream-live-bench-'));
const server = spawn(
  process.execPath,
  [
    ...serverNodeArgs,
    '--import',
    pathToFileURL(join(import.meta.dirname, 'server-probe.mjs')).href,
    ...serverEntry,
    'serve',
    '--http',
    '127.0.0.1:0',
    '--no-grpc',
    '--out',
    join(dir, 'bundle'),
    ...(withDb ? ['--db', join(dir, 'live.duckdb')] : []),
    '--settle-ms',
    '200',
    '--no-report',
    '--run-id',
    'agent-eval-bench-live',
    ...serveArgs,
  ],
  { stdio: ['ignore', 'inherit', 'pipe'] },
);
let serverLog = '';
server.stderr.on('data', (c: Buffer) => (serverLog += c.toString()));
for (let i = 0; i < 200 && !serverLog.includes('OTLP/HTTP'); i++)
  await new Promise((r) => setTimeout(r, 100));
if (!serverLog.includes('OTLP/HTTP')) throw new Error(`server did not start:\n${serverLog}`);
// the server listens on a port the system picks and says which in its first line
const port = Number(/OTLP\/HTTP[^\n]*?http:\/\/127\.0\.0\.1:(\d+)/.exec(serverLog)?.[1]);
if (!Number.isInteger(port) || port <= 0)
  throw new Error(`no OTLP/HTTP port in the server's log:\n${serverLog}`);

/**
 * User and system CPU seconds so far of process `pid`, or of its thread `thread` alone (the main
 * thread's id is the pid) (from /proc; 0 where unavailable).
 */
async function cpuTimesOf(
  pid: number | undefined,
  thread?: number | string,
): Promise<{ user: number; system: number }> {
  try {
    const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const stat = await readFile(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime in clock ticks (USER_HZ 100)
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: 0, system: 0 };
  }
}
const serverCpuTimes = (): Promise<{ user: number; system: number }> => cpuTimesOf(server.pid);

/** CPU seconds so far of each thread of process `pid`, by thread id (from /proc; empty where unavailable). */
async function threadCpuOf(pid: number | undefined): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  try {
    for (const tid of await readdir(`/proc/${pid}/task`)) {
      const times = await cpuTimesOf(pid, tid);
      out.set(tid, times.user + times.system);
    }
  } catch {
    // no /proc: the per-thread line says so
  }
  return out;
}

/**
 * One keep-alive HTTP/1.1 connection of a sender: a request is its head (written once per body
 * length) and the protobuf body in one corked write; the response is parsed from the socket
 * (status line, Content-Length or chunked body, Retry-After). A plain client, so the load generator
 * takes little of the machine's CPU from the server.
 */
class Connection {
  readonly #socket: Socket;
  #buffered: Buffer = Buffer.alloc(0);
  #waiting: {
    resolve: (r: { status: number; retryAfter: number }) => void;
    reject: (e: Error) => void;
  } | null = null;
  #headLength = -1;
  #head: Buffer = Buffer.alloc(0);

  constructor(private readonly port: number) {
    this.#socket = connect({ host: '127.0.0.1', port, noDelay: true });
    this.#socket.on('data', (chunk: Buffer) => {
      this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
      this.#parse();
    });
    this.#socket.on('error', (error) => this.#waiting?.reject(error));
  }

  post(body: Buffer): Promise<{ status: number; retryAfter: number }> {
    if (this.#headLength !== body.length) {
      this.#headLength = body.length;
      this.#head = Buffer.from(
        `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1:${this.port}\r\nContent-Type: application/x-protobuf\r\n` +
          `Content-Length: ${body.length}\r\n\r\n`,
      );
    }
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.cork();
      this.#socket.write(this.#head);
      this.#socket.write(body);
      this.#socket.uncork();
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #parse(): void {
    const buf = this.#buffered;
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0 || this.#waiting === null) return;
    const head = buf.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const header = (name: string): string | undefined =>
      new RegExp(`\\r\\n${name}:\\s*([^\\r]*)`, 'i').exec(head)?.[1];
    let bodyEnd: number;
    const length = header('content-length');
    if (length !== undefined) bodyEnd = end + 4 + Number(length);
    else if (/chunked/i.test(header('transfer-encoding') ?? '')) {
      const last = buf.indexOf('\r\n0\r\n\r\n', end);
      if (last < 0) return;
      bodyEnd = last + 7;
    } else throw new Error(`response without a length:\n${head}`);
    if (buf.length < bodyEnd) return;
    this.#buffered = buf.subarray(bodyEnd);
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting.resolve({ status, retryAfter: Number(header('retry-after') ?? 0) });
  }
}

let next = 1;
let exports = 0;
let accepted = 0;
let throttled = 0;
const latencies: number[] = [];
/** Per export: from its first attempt to its 200 (retries after 429 included). */
const exportLatencies: number[] = [];
/** Zeroes the totals above (after the baseline and after the warm-up). */
function resetTotals(): void {
  exports = 0;
  accepted = 0;
  throttled = 0;
  latencies.length = 0;
  exportLatencies.length = 0;
}
/**
 * One sender: exports to `target` until `until` (performance.now() ms), counting into the totals above;
 * `slot` is its place among the senders (its schedule's offset in open loop, with `offered` spans/s in
 * all; 0: closed loop).
 */
async function sender(target: number, until: number, slot: number, offered: number): Promise<void> {
  const connection = new Connection(target);
  const interval = offered > 0 ? (senders * template.spans * perRequest * 1000) / offered : 0;
  let due = offered > 0 ? performance.now() + (slot * interval) / senders : 0;
  /** When the previous export's last answer arrived. */
  let answeredAt = -Infinity;
  while (performance.now() < until) {
    if (offered > 0) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (due >= until) break;
    }
    const first = next;
    next += perRequest;
    // several serialized requests back to back are one request holding all their resource spans
    const body =
      perRequest === 1
        ? payload(first)
        : Buffer.concat(Array.from({ length: perRequest }, (_, i) => payload(first + i)));
    // Open loop: an export the server's previous answer held past its due time is timed from the due
    // time; one sent late only because this process's own timer fired late (the connection was free)
    // is timed from when it was sent: the load generator's lag is not the server's.
    const first0 = offered > 0 && answeredAt > due ? due : performance.now();
    if (offered > 0) due += interval;
    for (;;) {
      const t0 = performance.now();
      const { status, retryAfter } = await connection.post(body);
      latencies.push(performance.now() - t0);
      if (status === 200) {
        accepted += template.spans * perRequest;
        exports += 1;
        answeredAt = performance.now();
        exportLatencies.push(answeredAt - first0);
        break;
      }
      if (status !== 429 && status !== 503) throw new Error(`unexpected status ${status}`);
      throttled += 1;
      await new Promise((r) => setTimeout(r, Math.min(retryAfter * 1000, 50)));
    }
  }
  connection.close();
}
/**
 * The baseline measured in this run, before the load on serve (which idles meanwhile): a bare
 * node:http server that reads each export's body and answers 200 with an empty body, under the same
 * senders, for LIVE_BENCH_BASELINE_SECONDS (default 10; 0 skips it). Its CPU per span is the least
 * any Node receiver spends before decoding anything.
 */
const baselineSeconds = Number(process.env['LIVE_BENCH_BASELINE_SECONDS'] ?? Math.min(10, seconds));
let baseline: { spansPerSec: number; cpuPerSpanUs: number } | null = null;
if (baselineSeconds > 0) {
  const bare = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((req, res) => { req.on('data', () => {}); req.on('end', () => { ` +
        `res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' }); res.end(); }); })` +
        `.listen(0, '127.0.0.1', function () { process.stderr.write('ready ' + this.address().port + '\\n'); });`,
    ],
    { stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let bareLog = '';
  bare.stderr.on('data', (c: Buffer) => (bareLog += c.toString()));
  for (let i = 0; i < 100 && !bareLog.includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
  if (!bareLog.includes('ready')) throw new Error(`baseline server did not start:\n${bareLog}`);
  const barePort = Number(/ready (\d+)/.exec(bareLog)?.[1]);
  const before = await cpuTimesOf(bare.pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: senders }, (_, slot) => sender(barePort, t0 + baselineSeconds * 1000, slot, 0)),
  );
  const elapsedBare = (performance.now() - t0) / 1000;
  const after = await cpuTimesOf(bare.pid);
  bare.kill();
  const cpu = after.user + after.system - before.user - before.system;
  baseline = { spansPerSec: accepted / elapsedBare, cpuPerSpanUs: (cpu / accepted) * 1e6 };
  console.log(
    `baseline (this run): bare node:http receiving the same exports for ${elapsedBare.toFixed(1)} s: ` +
      `${baseline.spansPerSec.toFixed(0)} spans/s, ${baseline.cpuPerSpanUs.toFixed(1)} µs of server CPU per span`,
  );
  resetTotals();
}

/** Spans accepted during the warm-up (counted by the server and stored, not in the figures). */
let warmupAccepted = 0;
if (warmupSeconds > 0) {
  const until = performance.now() + warmupSeconds * 1000;
  await Promise.all(Array.from({ length: senders }, (_, slot) => sender(port, until, slot, rate)));
  warmupAccepted = accepted;
  resetTotals();
  console.log(`warm-up: ${warmupSeconds} s of the same load, ${warmupAccepted} spans (not in the figures)`);
}
const timesAtStart = await serverCpuTimes();
const mainAtStart = await cpuTimesOf(server.pid, server.pid);
const threadsAtStart = await threadCpuOf(server.pid);
const cpuAtStart = timesAtStart.user + timesAtStart.system;
const clientCpuAtStart = process.cpuUsage();
server.kill('SIGUSR2'); // server-probe.mjs: the load starts (loop-delay histogram reset)
const started = performance.now();
const deadline = started + seconds * 1000;
let sseEvents = 0;
let summaryReads = 0;
let summaryBuildMs = 0;
const watcher = new AbortController();
if (watch) {
  void fetch(`http://127.0.0.1:${port}/v1/events`, { signal: watcher.signal })
    .then(async (res) => {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        sseEvents += Buffer.from(chunk).toString().split('event: score').length - 1;
    })
    .catch(() => undefined);
  void (async () => {
    const full = watchMode === 'full';
    while (performance.now() < deadline) {
      const at = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/summary${full ? '' : '?omit=task_metric_values'}`);
      await res.json();
      const dur = Number(/summary;dur=([0-9.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? 0);
      summaryReads += 1;
      summaryBuildMs += dur;
      const wait = full ? 1000 : Math.max(1000, 20 * dur) - (performance.now() - at);
      await new Promise((r) => setTimeout(r, Math.max(0, wait)));
    }
  })();
}
await Promise.all(Array.from({ length: senders }, (_, slot) => sender(port, deadline, slot, rate)));
watcher.abort();
const elapsed = (performance.now() - started) / 1000;
server.kill('SIGUSR2'); // server-probe.mjs: the load ended (prints the loop delay)
const timesAtEnd = await serverCpuTimes();
const mainAtEnd = await cpuTimesOf(server.pid, server.pid);
const threadsAtEnd = await threadCpuOf(server.pid);
/** The server's peak resident memory so far (MB, from /proc; NaN where unavailable). */
const peakRssMb = await readFile(`/proc/${server.pid}/status`, 'utf8').then(
  (status) => Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024,
  () => NaN,
);
/** Each thread's CPU during the load, busiest first (the main thread left out). */
const otherThreadsCpu = [...threadsAtEnd]
  .filter(([tid]) => tid !== String(server.pid))
  .map(([tid, cpu]) => cpu - (threadsAtStart.get(tid) ?? 0))
  .sort((a, b) => b - a);
const serverMainCpu = mainAtEnd.user + mainAtEnd.system - mainAtStart.user - mainAtStart.system;
const serverSystem = timesAtEnd.system - timesAtStart.system;
const serverCpu = timesAtEnd.user + timesAtEnd.system - cpuAtStart;
const clientCpu = process.cpuUsage(clientCpuAtStart);
const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
const received = Number(/evalstream_spans_received_total (\d+)/.exec(metrics)?.[1]);
// warm-up included: the counters run from the server's start
const exportWaits = Number(/evalstream_export_waits_total (\d+)/.exec(metrics)?.[1]);
const exportWaitMs = Number(/evalstream_export_wait_ms_sum (\d+)/.exec(metrics)?.[1]);
server.kill('SIGTERM');
const code = await new Promise<number | null>((r) => server.on('exit', r));
const loopDelay = /serve-child loop-delay (.*)/.exec(serverLog)?.[1] ?? 'not reported';
const exitCpu = Number(/serve-child cpu-us (\d+)/.exec(serverLog)?.[1] ?? NaN) / 1e6;
latencies.sort((a, b) => a - b);
exportLatencies.sort((a, b) => a - b);
const pctOf = (list: number[], p: number): number =>
  list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? NaN;
const pct = (p: number): number => pctOf(latencies, p);
/** Lines of a JSONL file, streamed (a long run's trials.jsonl is larger than a string can be). */
const countLines = async (file: string): Promise<number> => {
  let lines = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines += 1;
    if (chunk.length > 0) last = chunk[chunk.length - 1]!;
  }
  return last === 0x0a ? lines : lines + 1;
};
const bundleTrials = await countLines(join(dir, 'bundle', 'trials.jsonl'));
const bundleScores = await countLines(join(dir, 'bundle', 'scores.jsonl'));
const bundleTasks = await countLines(join(dir, 'bundle', 'tasks.jsonl'));
const requests = (warmupAccepted + accepted) / template.spans; // trials sent, warm-up included
if (serveArgs.length > 0) console.log(`  serve options: ${serveArgs.join(' ')}`);
console.log(`  server node options: ${serverNodeArgs.filter((a) => !a.includes('cpu-prof')).join(' ')}`);
console.log(
  `live (${mode === 'cli' ? 'built CLI' : 'sources through tsx'}): ${senders} senders, ${elapsed.toFixed(1)} s, ${template.spans * perRequest} spans/request (${perRequest} trial${perRequest === 1 ? '' : 's'}, ${template.bytes.length * perRequest} bytes), ${repeats === 0 ? 'one task for all trials' : `${repeats} trials per task`}, ${withDb ? 'with --db' : 'without --db (bundle only)'}`,
);
if (rate > 0)
  console.log(
    `  open loop: ${rate} spans/s offered; an export the server held past its due time is timed from that due time`,
  );
console.log(
  `  sustained ${(accepted / elapsed).toFixed(0)} spans/s accepted (${(exports / elapsed).toFixed(0)} exports/s), ${throttled} throttled answers`,
);
if (watch)
  console.log(
    `  watcher (${watchMode === 'full' ? 'whole summary once a second' : 'live page'}): ${sseEvents} SSE score events, ${summaryReads} summary reads, ${(summaryBuildMs / 1000).toFixed(2)} s of server time building them`,
  );
console.log(
  `  export latency p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms per answer; ` +
    `first attempt → accepted (retries after 429 included) p50 ${pctOf(exportLatencies, 50).toFixed(1)} ms, p99 ${pctOf(exportLatencies, 99).toFixed(1)} ms`,
);
console.log(
  `  server event-loop delay during load (ms, sampled every 2 ms, so ~2 is no delay): ${loopDelay}`,
);
console.log(
  `  server CPU ${serverCpu.toFixed(1)} s during load (${((serverCpu / accepted) * 1e6).toFixed(1)} µs/span, ${((serverSystem / accepted) * 1e6).toFixed(1)} of it system), ` +
    `${(exitCpu - cpuAtStart).toFixed(1)} s load start → exit (${(((exitCpu - cpuAtStart) / accepted) * 1e6).toFixed(1)} µs/span); peak RSS ${peakRssMb.toFixed(0)} MB by the load's end`,
);
console.log(
  `  server main thread ${serverMainCpu.toFixed(1)} s of CPU during load (${((serverMainCpu / elapsed) * 100).toFixed(0)} % of the load's wall time, ` +
    `${((serverMainCpu / accepted) * 1e6).toFixed(1)} µs/span); other threads ${(((serverCpu - serverMainCpu) / accepted) * 1e6).toFixed(1)} µs/span`,
);
if (otherThreadsCpu.length > 0) {
  const [busiest = 0, next = 0] = otherThreadsCpu;
  console.log(
    `  busiest other thread (the engine thread) ${busiest.toFixed(1)} s of CPU (${((busiest / elapsed) * 100).toFixed(0)} % of the load's wall time, ` +
      `${((busiest / accepted) * 1e6).toFixed(1)} µs/span); next ${next.toFixed(1)} s (the garbage collector's helper); ` +
      `the other ${otherThreadsCpu.length - 2} threads ${otherThreadsCpu
        .slice(2)
        .reduce((a, b) => a + b, 0)
        .toFixed(1)} s`,
  );
}
console.log(
  `  exports that found the queues full and waited for room (--saturation-wait-ms; warm-up included): ${exportWaits} waits, ` +
    `${(exportWaitMs / 1000).toFixed(1)} s in all${exportWaits > 0 ? ` (mean ${(exportWaitMs / exportWaits).toFixed(0)} ms)` : ''}`,
);
if (baseline !== null) {
  console.log(
    `  against the baseline: ${(accepted / elapsed / baseline.spansPerSec).toFixed(2)}× its spans/s, ` +
      `${(((serverCpu / accepted) * 1e6) / baseline.cpuPerSpanUs).toFixed(1)}× its CPU per span`,
  );
}
console.log(
  `  bench client (senders) CPU ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s (${((clientCpu.user + clientCpu.system) / (exports + throttled)).toFixed(1)} µs/request, ` +
    `${((clientCpu.user + clientCpu.system) / accepted).toFixed(1)} µs/span accepted)`,
);
const sent = warmupAccepted + accepted;
let equal = received === sent && bundleTrials === requests;
if (withDb) {
  const instance = await DuckDBInstance.create(join(dir, 'live.duckdb'), { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const one = async (sql: string): Promise<number> =>
    Number((await connection.runAndReadAll(sql)).getRows()[0]![0]);
  const storedSpans = await one('select count(*) from spans');
  const distinctSpans = await one('select count(distinct (trace_id, span_id)) from spans');
  const storedTrials = await one('select count(*) from trials');
  connection.closeSync();
  equal &&= sent === storedSpans && distinctSpans === storedSpans && storedTrials === requests;
  console.log(
    `  spans accepted ${sent} (server counted ${received}) vs stored ${storedSpans} rows in DuckDB (${distinctSpans} distinct), trials ${requests} sent vs ${storedTrials} stored vs ${bundleTrials} in bundle: ${equal ? 'EQUAL' : 'MISMATCH'}`,
  );
} else {
  console.log(
    `  spans accepted ${sent} (server counted ${received}); trials ${requests} sent vs ${bundleTrials} in bundle: ${equal ? 'EQUAL' : 'MISMATCH'}`,
  );
}
console.log(`  bundle: ${bundleTasks} tasks, ${bundleScores} score records; server exit code ${code}`);
console.log(`  targets: >= 50000 spans/s sustained, p99 < 100 ms`);
if (!equal || code !== 0) process.exitCode = 1;
if (keep) console.log(`  kept ${dir}`);
else await rm(dir, { recursive: true, force: true });
