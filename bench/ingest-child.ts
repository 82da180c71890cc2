/**
 * Child process of `bench/ingest.bench.ts` (run pinned to one core, so each figure and its max RSS are
 * its own). Modes, each printing one JSON line on stdout:
 *
 *   speed <file>   (a) protobufjs reflection decode, (b) evalstream's decode stage, (b+) the decode
 *                  stage with every span's ids, name and times read, over the same in-memory frames;
 *                  then (c) the full score pipeline over the file, twice: cold (its first run in the
 *                  process) and warm (the second run, JIT warmed on the same data: steady state)
 *   score <file>   the full score pipeline only, with the process's max RSS
 */
import { readFileSync } from 'node:fs';
import { decodeOtlpProtobuf } from '../src/evidence/otlp/decode-otlp-protobuf.js';
import { loadOtlpProtoRoot } from '../src/evidence/otlp/load-otlp-proto-root.js';
import { OtlpPayloadSplitter } from '../src/evidence/otlp/otlp-payload-splitter.js';
import { buildPipeline } from '../src/pipeline/build-pipeline.js';
import { runPipeline } from '../src/pipeline/run-pipeline.js';
import { fromOtlpFiles } from '../src/sources/from-otlp-files.js';

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

if (mode === 'speed') {
  const all = frames();
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
  let sink = 0;
  const touched = (f: Buffer): number => {
    let n = 0;
    for (const rs of decodeOtlpProtobuf(f).resourceSpans) {
      for (const ss of rs.scopeSpans) {
        for (const s of ss.spans) {
          sink += s.traceId.length + s.spanId.length + s.parentSpanId.length + s.name.length;
          sink += Number(s.endTimeUnixNano - s.startTimeUnixNano > 0n);
          n += 1;
        }
      }
    }
    return n;
  };
  for (const f of all.slice(0, 300)) sink += reflection(f) + decode(f) + touched(f);
  const [a, b, bt] = interleaved(all, [reflection, decode, touched], 2) as [number, number, number];
  let fileSpans = 0;
  for (const f of all) fileSpans += decode(f);
  // (c) twice over the same file: cold (the pipeline's first run in this process, JIT not yet warm)
  // and warm (steady state), each compared with the baseline timed right before and after it
  const around = async (): Promise<{ run: Awaited<ReturnType<typeof scoreFile>>; baseline: number }> => {
    globalThis.gc?.();
    const before = interleaved(all, [reflection], 1)[0] as number;
    const run = await scoreFile();
    const after = interleaved(all, [reflection], 1)[0] as number;
    return { run, baseline: (before + after) / 2 };
  };
  const cold = await around();
  const warm = await around();
  console.log(
    JSON.stringify({
      frames: all.length,
      fileSpans,
      fileBytes: all.reduce((n, f) => n + 4 + f.length, 0),
      reflection: a,
      decode: b,
      decodeTouched: bt,
      reflectionAroundPipeline: warm.baseline,
      pipeline: { ...warm.run, spansPerSec: fileSpans / warm.run.seconds },
      reflectionAroundColdPipeline: cold.baseline,
      coldPipeline: { ...cold.run, spansPerSec: fileSpans / cold.run.seconds },
      sink: sink > 0,
    }),
  );
} else if (mode === 'score') {
  const r = await scoreFile();
  console.log(JSON.stringify({ ...r, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
