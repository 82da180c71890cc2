/**
 * Child process of `bench/ingest.bench.ts` (run pinned to one core, so each figure and its max RSS are
 * its own). Modes, each printing one JSON line on stdout:
 *
 *   speed <file>   (a) protobufjs reflection decode, (b) evalstream's decode stage, (b+) the decode
 *                  stage with every span's ids, name and times read, over the same in-memory frames;
 *                  then (c) the full score pipeline over the file
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

async function scoreFile(): Promise<{ seconds: number; trials: number; scores: number; error: string | null }> {
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

/** Runs `pass` over all frames until at least `minSeconds` elapsed (after one warm-up pass). */
function timed(all: Buffer[], pass: (f: Buffer) => number, minSeconds = 3): { spansPerSec: number; spans: number } {
  let spans = 0;
  for (const f of all.slice(0, 300)) pass(f);
  const t = performance.now();
  let elapsed = 0;
  do {
    for (const f of all) spans += pass(f);
    elapsed = (performance.now() - t) / 1000;
  } while (elapsed < minSeconds);
  return { spansPerSec: spans / elapsed, spans };
}

if (mode === 'speed') {
  const all = frames();
  const Request = loadOtlpProtoRoot().lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
  type Msg = { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
  const reflection = timed(all, (f) => {
    const m = Request.decode(f) as unknown as Msg;
    let n = 0;
    for (const rs of m.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
    return n;
  });
  const decode = timed(all, (f) => {
    let n = 0;
    for (const rs of decodeOtlpProtobuf(f).resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
    return n;
  });
  let sink = 0;
  const decodeTouched = timed(all, (f) => {
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
  });
  const pipeline = await scoreFile();
  const spansInFile = decode.spans / Math.max(1, Math.round(decode.spans / all.length)) ;
  void spansInFile;
  let fileSpans = 0;
  for (const f of all) for (const rs of decodeOtlpProtobuf(f).resourceSpans) for (const ss of rs.scopeSpans) fileSpans += ss.spans.length;
  console.log(
    JSON.stringify({
      frames: all.length,
      fileSpans,
      reflection: reflection.spansPerSec,
      decode: decode.spansPerSec,
      decodeTouched: decodeTouched.spansPerSec,
      pipeline: { ...pipeline, spansPerSec: fileSpans / pipeline.seconds },
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
