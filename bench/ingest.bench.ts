/**
 * OTLP ingestion: speed of decoding and scoring realistic agent traces, and memory of scoring large
 * dumps. Traces are recorded with the real OpenTelemetry JS SDK and serialized by its
 * ProtobufTraceSerializer (see generate-agent-traces.ts), framed as the Collector file exporter does.
 *
 * Speed, one run over the same frames of the ~100 MB dump, in a child pinned to one core:
 *   (a) baseline: plain protobufjs reflection decode (`Type.decode`) of every frame
 *   (b) evalstream's decode stage (`decodeOtlpProtobuf`, what `decodeOtlp` runs)
 *   (c) the full `score` pipeline: fromOtlpFiles → decode → groupIntoTrials → scoreTrials with the
 *       default trajectory metrics (buildPipeline, no sinks), reading the file. Run twice in the same
 *       child: cold (the pipeline's first run, JIT not warm, while (a) and (b) have been warmed by
 *       their own passes) and warm (second run over the same data: steady state). Both are printed;
 *       the target is checked on the warm run.
 *   targets: (b) ≥ 3× (a) and (c) ≥ 1.5× (a) in spans/s. (a) and (b) run interleaved in blocks of
 *   frames, and each (c) run is compared with (a) timed right before and after it, so load from
 *   other processes affects both sides alike.
 * Memory: scoring the ~100 MB and the ~1 GB dump, each in its own child; max RSS of each.
 *   targets: 1 GB peak < 400 MB, and ≤ 1.2× the 100 MB peak.
 *
 *   npm run bench -- ingest    (EVALSTREAM_BENCH_INGEST_LARGE_MB=1000, EVALSTREAM_BENCH_INGEST_SMALL_MB=100)
 */
import { spawn, spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { recordTrialPool, writeAgentTraceDump } from './generate-agent-traces.js';

const SMALL_MB = Number(process.env['EVALSTREAM_BENCH_INGEST_SMALL_MB'] ?? 100);
const LARGE_MB = Number(process.env['EVALSTREAM_BENCH_INGEST_LARGE_MB'] ?? 1000);
const POOL = Number(process.env['EVALSTREAM_BENCH_INGEST_POOL'] ?? 1500);
const out = join(import.meta.dirname, 'out');
const child = join(import.meta.dirname, 'ingest-child.ts');
const pinned = spawnSync('taskset', ['--version']).status === 0;

async function dump(mb: number, pool: () => ReturnType<typeof recordTrialPool>): Promise<string> {
  const file = join(out, `ingest-${mb}mb-pool${POOL}-v1.binpb`);
  const have = await stat(file).catch(() => null);
  if (have !== null && have.size >= mb * 1e6) return file;
  const t = performance.now();
  const info = await writeAgentTraceDump(file, mb * 1e6, pool());
  console.log(
    `ingest: wrote ${file}: ${(info.bytes / 1e6).toFixed(0)} MB, ${info.trials} trials, ${info.spans} spans ` +
      `in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  return file;
}

/** Runs the child (pinned to CPU 0 when taskset exists) and parses its JSON line. */
function runChild(mode: string, file: string): Promise<Record<string, unknown>> {
  const args = ['--expose-gc', '--import', 'tsx', child, mode, file];
  const [cmd, argv] = pinned ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`ingest child ${mode} exited ${code}`));
      else resolve(JSON.parse(text.trim().split('\n').pop() as string) as Record<string, unknown>);
    });
  });
}

let poolCache: ReturnType<typeof recordTrialPool> | null = null;
const pool = (): ReturnType<typeof recordTrialPool> => {
  if (poolCache === null) {
    const t = performance.now();
    poolCache = recordTrialPool(POOL);
    console.log(
      `ingest: recorded ${POOL} distinct trials with the OTel SDK in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  return poolCache;
};
const small = await dump(SMALL_MB, pool);
const large = await dump(LARGE_MB, pool);

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
interface PipelineRun {
  seconds: number;
  trials: number;
  scores: number;
  spansPerSec: number;
  error: string | null;
}
const speed = (await runChild('speed', small)) as {
  frames: number;
  fileSpans: number;
  fileBytes: number;
  reflection: number;
  decode: number;
  decodeTouched: number;
  reflectionAroundPipeline: number;
  pipeline: PipelineRun;
  reflectionAroundColdPipeline: number;
  coldPipeline: PipelineRun;
};
const b = speed.decode / speed.reflection;
const c = speed.pipeline.spansPerSec / speed.reflectionAroundPipeline;
console.log(
  `ingest: speed on ${small} (${speed.frames} frames, ${fmt(speed.fileSpans)} spans, ${(speed.fileBytes / speed.fileSpans).toFixed(0)} B/span)${pinned ? ', one core (taskset -c 0)' : ''}`,
);
console.log(`  (a) protobufjs reflection decode   ${fmt(speed.reflection)} spans/s`);
console.log(
  `  (b) evalstream decode stage        ${fmt(speed.decode)} spans/s   = ${b.toFixed(2)}x (a)  target >= 3x   ${b >= 3 ? 'OK' : 'MISSED'}`,
);
console.log(
  `      decode + ids/name/times read   ${fmt(speed.decodeTouched)} spans/s   = ${(speed.decodeTouched / speed.reflection).toFixed(2)}x (a)`,
);
const run = (r: PipelineRun): string =>
  `(${r.trials} trials, ${r.scores} scores in ${r.seconds.toFixed(2)} s${r.error === null ? '' : `, error ${r.error}`})`;
const cCold = speed.coldPipeline.spansPerSec / speed.reflectionAroundColdPipeline;
console.log(
  `  (c) full score pipeline, warm      ${fmt(speed.pipeline.spansPerSec)} spans/s   = ${c.toFixed(2)}x (a)  target >= 1.5x ${c >= 1.5 ? 'OK' : 'MISSED'}  ${run(speed.pipeline)}`,
);
console.log(
  `      full score pipeline, cold      ${fmt(speed.coldPipeline.spansPerSec)} spans/s   = ${cCold.toFixed(2)}x (a)  (first run in the process)  ${run(speed.coldPipeline)}`,
);
console.log(
  `      each (c) is compared with (a) measured right before and after it: ${fmt(speed.reflectionAroundPipeline)} spans/s (warm), ${fmt(speed.reflectionAroundColdPipeline)} spans/s (cold)`,
);

const memSmall = (await runChild('score', small)) as { maxRssBytes: number; trials: number; seconds: number };
const memLarge = (await runChild('score', large)) as { maxRssBytes: number; trials: number; seconds: number };
const mb = (n: number): string => `${(n / 1048576).toFixed(0)} MB`;
const ratio = memLarge.maxRssBytes / memSmall.maxRssBytes;
console.log(`ingest: memory of the full score pipeline (max RSS)`);
console.log(
  `  ${SMALL_MB} MB dump: ${mb(memSmall.maxRssBytes)} (${memSmall.trials} trials in ${memSmall.seconds.toFixed(0)} s)`,
);
console.log(
  `  ${LARGE_MB} MB dump: ${mb(memLarge.maxRssBytes)} (${memLarge.trials} trials in ${memLarge.seconds.toFixed(0)} s)` +
    `  target < 400 MB ${memLarge.maxRssBytes < 400 * 1048576 ? 'OK' : 'MISSED'}`,
);
console.log(`  ratio ${ratio.toFixed(2)}x  target <= 1.2x ${ratio <= 1.2 ? 'OK' : 'MISSED'}`);
