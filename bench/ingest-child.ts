/**
 * Child process of `bench/ingest.bench.ts` (run pinned to one core, so each figure and its max RSS are
 * its own). Modes, each printing one JSON line on stdout:
 *
 *   decoders <file>  (a) protobufjs reflection decode, (b) evalstream's decode stage, (b+) the decode
 *                    stage with every span's ids, name and times read, interleaved over the same
 *                    in-memory frames
 *   reflect <file>   (a) alone, pass after pass over the frames (EVALSTREAM_BENCH_INGEST_PASSES, default
 *                    5): the first pass cold, the median of the others warm
 *   pipeline <file>  (c) the full score pipeline over the file, run after run the same way: the first
 *                    run cold (a fresh process, as a user runs `score`), the median of the others warm
 *   layers <file>    what each layer of (c) costs: read, + decode, + grouping and trial records, + scoring
 *                    with one constant metric, + the default metrics instead (CPU s, warm median)
 *   floor <file>     the columnar lower bound (columnar-floor.ts) pass after pass, and whether it computes
 *                    the same default-metric totals as the real pipeline
 *   warmup <file>    the CPU time of each further 1000 trials through the full score pipeline (no
 *                    sinks), in two passes over the file in one fresh process: the first cold, the
 *                    second warm
 *   score <file>     the full score pipeline once, with the process's max RSS
 *   retained <file> <out> [report|no-report]  the score pipeline into a bundle, with the report (as
 *                    `score` runs it) or without: the live heap, and the array buffers (typed arrays'
 *                    memory, outside the heap), after a full collection once every trial has passed,
 *                    before the summary and the report are finished
 *
 * `reflect` and `pipeline` are separate fresh processes holding only what each needs (the frames in
 * memory for (a), nothing for (c)) and calling no forced GC, so neither side runs in a heap shaped by
 * the other's work.
 */
import { readFileSync } from 'node:fs';
import { concat, concatMap, count, defer, from, lastValueFrom, tap, type Observable } from 'rxjs';
import { parseConfig } from '../src/config/parse-config.js';
import { pandasMedian as median } from '../src/gym/stats/pandas-median.js';
import { columnarFloor, emptyFloorTotals, type FloorTotals } from './columnar-floor.js';
import { decodeOtlpProtobuf } from '../src/evidence/otlp/decode-otlp-protobuf.js';
import { loadOtlpProtoRoot } from '../src/evidence/otlp/load-otlp-proto-root.js';
import { OtlpPayloadSplitter } from '../src/evidence/otlp/otlp-payload-splitter.js';
import { readOtlpPayloadBatches } from '../src/evidence/otlp/read-otlp-payload-batches.js';
import { discreteScore } from '../src/metrics/output-specs.js';
import { decodeOtlp } from '../src/operators/decode-otlp.js';
import { groupIntoTrials } from '../src/operators/group-into-trials.js';
import { buildPipeline } from '../src/pipeline/build-pipeline.js';
import { runPipeline } from '../src/pipeline/run-pipeline.js';
import { fromOtlpFiles } from '../src/sources/from-otlp-files.js';
import type { Metric } from '../src/model/metric.js';
import type { ScoredTrial } from '../src/model/scored-trial.js';
import type { Sink } from '../src/sinks/sink.js';
import { toRunBundle } from '../src/sinks/to-run-bundle.js';
import { bundleReportWriter } from '../src/bundle/bundle-report-writer.js';
import { rm } from 'node:fs/promises';

const [mode, file] = process.argv.slice(2) as [string, string];

async function scoreFile(): Promise<{
  seconds: number;
  trials: number;
  scores: number;
  error: string | null;
}> {
  const t = performance.now();
  const { stats, error } = await runPipeline(buildPipeline({ source: fromOtlpFiles([file]), sinks: [] }));
  return {
    seconds: (performance.now() - t) / 1000,
    trials: stats.trials,
    scores: stats.scores,
    error: error === null ? null : String(error),
  };
}

function frames(): Buffer[] {
  const s = new OtlpPayloadSplitter('protobuf');
  const out = [...s.push(readFileSync(file)), ...s.end()];
  return out.map((p) => (p.kind === 'protobuf' ? p.bytes : Buffer.alloc(0)));
}

type Pass = (f: Buffer) => number;
let touchedSink = 0;

/** (a) protobufjs reflection decode, (b) evalstream's decode stage, (b+) (b) reading ids, name and times. */
function decoders(): [Pass, Pass, Pass] {
  const Request = loadOtlpProtoRoot().lookupType(
    'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
  );
  type Msg = { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
  const reflection = (f: Buffer): number => {
    const m = Request.decode(f) as unknown as Msg;
    let n = 0;
    for (const rs of m.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
    return n;
  };
  const decode = (f: Buffer): number => {
    let n = 0;
    for (const rs of decodeOtlpProtobuf(f).resourceSpans)
      for (const ss of rs.scopeSpans) n += ss.spans.length;
    return n;
  };
  const touched = (f: Buffer): number => {
    let n = 0;
    for (const rs of decodeOtlpProtobuf(f).resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const s of ss.spans) {
          touchedSink += s.traceId.length + s.spanId.length + s.parentSpanId.length + s.name.length;
          touchedSink += Number(s.endTimeUnixNano - s.startTimeUnixNano > 0n);
          n += 1;
        }
      }
    }
    return n;
  };
  return [reflection, decode, touched];
}

/**
 * Times several decoders over the same frames, interleaved in blocks of 50 frames (order rotating),
 * for `rounds` sweeps, so load from other processes hits each alike. Returns spans/s of each.
 */
function interleaved(all: Buffer[], passes: Pass[], rounds: number): number[] {
  const ms = passes.map(() => 0);
  const spans = passes.map(() => 0);
  let block = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < all.length; i += 50, block += 1) {
      const frames = all.slice(i, i + 50);
      for (let k = 0; k < passes.length; k += 1) {
        const j = (k + block) % passes.length;
        const pass = passes[j] as Pass;
        const t = performance.now();
        for (const f of frames) spans[j] = (spans[j] as number) + pass(f);
        ms[j] = (ms[j] as number) + performance.now() - t;
      }
    }
  }
  return spans.map((n, j) => n / ((ms[j] as number) / 1000));
}

const PASSES = Number(process.env['EVALSTREAM_BENCH_INGEST_PASSES'] ?? 5);

if (mode === 'decoders') {
  const all = frames();
  const [reflection, decode, touched] = decoders();
  let sink = 0;
  for (const f of all.slice(0, 300)) sink += reflection(f) + decode(f) + touched(f);
  const [a, b, bt] = interleaved(all, [reflection, decode, touched], 2) as [number, number, number];
  console.log(JSON.stringify({ reflection: a, decode: b, decodeTouched: bt, sink: sink + touchedSink > 0 }));
} else if (mode === 'reflect') {
  // (a) alone in a fresh process, pass after pass over the frames (as `pipeline` runs the pipeline)
  const all = frames();
  const [reflection] = decoders();
  let fileSpans = 0;
  const seconds: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    const t = performance.now();
    let n = 0;
    for (const f of all) n += reflection(f);
    seconds.push((performance.now() - t) / 1000);
    fileSpans = n;
  }
  console.log(
    JSON.stringify({
      frames: all.length,
      fileSpans,
      fileBytes: all.reduce((n, f) => n + 4 + f.length, 0),
      coldSpansPerSec: fileSpans / (seconds[0] as number),
      warmSpansPerSec: fileSpans / median(seconds.slice(1)),
      seconds,
    }),
  );
} else if (mode === 'pipeline') {
  // (c) in a fresh process, run after run over the file: the first run is cold, the rest warm
  const runs: Awaited<ReturnType<typeof scoreFile>>[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) runs.push(await scoreFile());
  const seconds = runs.map((r) => r.seconds);
  console.log(
    JSON.stringify({
      trials: (runs[0] as (typeof runs)[number]).trials,
      scores: (runs[0] as (typeof runs)[number]).scores,
      error: (runs[0] as (typeof runs)[number]).error,
      coldSeconds: seconds[0],
      warmSeconds: median(seconds.slice(1)),
      seconds,
    }),
  );
} else if (mode === 'layers') {
  // what each layer of (c) adds, in one fresh process: every pass runs the layers in turn, each from
  // the file; warm = the median over passes 2.. of each layer's CPU time
  const payloads = (): Observable<unknown> =>
    concat(defer(() => from(readOtlpPayloadBatches(file, {})))).pipe(concatMap((batch) => batch));
  const constant = (type: string): Metric => {
    const specs = [discreteScore('one')];
    return {
      type,
      outputSpec: () => specs.slice(),
      computeScores: () => Promise.resolve({ outputs: [{ name: 'one', value: 1 }] }),
    };
  };
  const constantConfig = parseConfig({ metrics: { default: [constant('constant')] } }, '(bench)');
  const layers: [string, () => Promise<unknown>][] = [
    ['read', () => lastValueFrom(payloads().pipe(count()))],
    ['decode', () => lastValueFrom(payloads().pipe(decodeOtlp() as never, count()))],
    [
      'group',
      () => lastValueFrom(payloads().pipe(decodeOtlp() as never, groupIntoTrials() as never, count())),
    ],
    [
      'score1',
      () => runPipeline(buildPipeline({ source: fromOtlpFiles([file]), sinks: [], config: constantConfig })),
    ],
    ['default', () => runPipeline(buildPipeline({ source: fromOtlpFiles([file]), sinks: [] }))],
  ];
  const cpu: number[][] = layers.map(() => []);
  for (let pass = 0; pass < PASSES; pass += 1) {
    for (let i = 0; i < layers.length; i += 1) {
      const c0 = process.cpuUsage();
      await (layers[i] as (typeof layers)[number])[1]();
      const c = process.cpuUsage(c0);
      (cpu[i] as number[]).push((c.user + c.system) / 1e6);
    }
  }
  console.log(
    JSON.stringify(
      Object.fromEntries(layers.map(([name], i) => [name, median((cpu[i] as number[]).slice(1))])),
    ),
  );
} else if (mode === 'floor') {
  // the columnar lower bound (bench/columnar-floor.ts), pass after pass like `pipeline`; then the
  // real pipeline once (untimed) to check the floor computes the same scores on this input
  const seconds: number[] = [];
  let floor: FloorTotals | null = null;
  for (let pass = 0; pass < PASSES; pass += 1) {
    const t = performance.now();
    floor = await columnarFloor(file);
    seconds.push((performance.now() - t) / 1000);
  }
  const real = emptyFloorTotals();
  const fields: Record<string, keyof FloorTotals> = {
    steps: 'steps',
    tool_calls: 'toolCalls',
    tool_errors: 'toolErrors',
    input_tokens: 'inputTokens',
    output_tokens: 'outputTokens',
    max_repeated_tool_calls: 'maxRepeatedToolCalls',
  };
  await lastValueFrom(
    buildPipeline({ source: fromOtlpFiles([file]), sinks: [] }).scored$.pipe(
      tap((scored) => {
        real.trials += 1;
        for (const score of scored.scores) {
          for (const o of score.outputs) {
            const field = fields[o.name];
            if (field !== undefined) real[field] += o.value as number;
          }
        }
      }),
    ),
    { defaultValue: null },
  );
  console.log(
    JSON.stringify({
      coldSeconds: seconds[0],
      warmSeconds: median(seconds.slice(1)),
      floor,
      real,
      same: JSON.stringify(floor) === JSON.stringify(real),
    }),
  );
} else if (mode === 'retained') {
  // what the run holds once every trial has passed: the live heap after a full collection, taken by
  // a sink whose shutdown runs before the bundle's (which then finishes the summary and the report)
  const out = process.argv[4] as string;
  let heapUsed = 0;
  let arrayBuffers = 0;
  const probe: Sink<ScoredTrial> = {
    write: async () => undefined,
    flush: async () => undefined,
    shutdown: async () => {
      // a dead typed array's memory is released after the collection, off the main thread: collect,
      // let that finish, collect again
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 200));
      (globalThis as { gc?: () => void }).gc?.();
      ({ heapUsed, arrayBuffers } = process.memoryUsage());
    },
  };
  const reportWriter = process.argv[5] === 'no-report' ? null : bundleReportWriter;
  const sinks = [probe, toRunBundle(out, { reportWriter })];
  const { stats, error } = await runPipeline(buildPipeline({ source: fromOtlpFiles([file]), sinks }));
  await rm(out, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      trials: stats.trials,
      error: error === null ? null : String(error),
      heapUsed,
      arrayBuffers,
    }),
  );
} else if (mode === 'warmup') {
  // the CPU time of each further 1000 trials through the score pipeline (default metrics, no sinks),
  // pass after pass in one fresh process: how long the first pass runs slower than the second
  const step = 1000;
  const passes: number[][] = [];
  for (let pass = 0; pass < 2; pass += 1) {
    const perStep: number[] = [];
    let c0 = process.cpuUsage();
    let seen = 0;
    const counter: Sink<ScoredTrial> = {
      write: () => {
        seen += 1;
        if (seen % step === 0) {
          const c = process.cpuUsage(c0);
          perStep.push((c.user + c.system) / 1e6);
          c0 = process.cpuUsage();
        }
        return Promise.resolve();
      },
      flush: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
    };
    await runPipeline(buildPipeline({ source: fromOtlpFiles([file]), sinks: [counter] }));
    passes.push(perStep);
  }
  console.log(JSON.stringify({ step, passes }));
} else if (mode === 'score') {
  const r = await scoreFile();
  console.log(JSON.stringify({ ...r, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
