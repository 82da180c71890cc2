/**
 * `evalstream score --workers N` against `--workers 1` on the same input, each a whole process of the
 * built CLI (`npm run build` first), alternated ROUNDS times so load from other processes hits both
 * sides alike; the figures are the medians, the speed-up is `--workers 1` time / `--workers N` time.
 * Inputs: a many-ATIF run (copies of the ATIF fixtures with distinct ids, 50 tasks) and an OTLP dump
 * of realistic agent traces (bench/generate-agent-traces.ts). Each pair of runs must write the same
 * summary.json, scores.jsonl and trials.jsonl.
 *
 *   npm run bench -- workers   (EVALSTREAM_BENCH_WORKERS=2, EVALSTREAM_BENCH_WORKERS_ROUNDS=3,
 *                               EVALSTREAM_BENCH_WORKERS_ATIF_FILES=4000, EVALSTREAM_BENCH_WORKERS_OTLP_MB=100,
 *                               EVALSTREAM_BENCH_WORKERS_PARTS=atif,otlp)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pandasMedian as median } from '../src/gym/stats/pandas-median.js';
import { recordTrialPool, writeAgentTraceDump } from './generate-agent-traces.js';

const WORKERS = Number(process.env['EVALSTREAM_BENCH_WORKERS'] ?? 2);
const ROUNDS = Number(process.env['EVALSTREAM_BENCH_WORKERS_ROUNDS'] ?? 3);
const ATIF_FILES = Number(process.env['EVALSTREAM_BENCH_WORKERS_ATIF_FILES'] ?? 4000);
const OTLP_MB = Number(process.env['EVALSTREAM_BENCH_WORKERS_OTLP_MB'] ?? 100);
const PARTS = new Set((process.env['EVALSTREAM_BENCH_WORKERS_PARTS'] ?? 'atif,otlp').split(','));
const here = import.meta.dirname;
const out = join(here, 'out');
const child = join(here, 'whole-process-child.mjs');
const COMPARED = ['summary.json', 'scores.jsonl', 'trials.jsonl'];

if (!existsSync(join(here, '..', 'dist', 'src', 'cli', 'main.js'))) {
  console.error('workers: build the CLI first (npm run build)');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

/** ATIF_FILES copies of the ATIF fixtures, each with its own trajectory id, over 50 tasks. */
function atifRun(): string {
  const dir = join(out, `workers-atif-${ATIF_FILES}`);
  if (existsSync(dir) && readdirSync(dir).length === ATIF_FILES) return dir;
  mkdirSync(dir, { recursive: true });
  const fixtures = join(here, '..', 'test', 'fixtures', 'atif');
  const sources = readdirSync(fixtures)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(fixtures, f), 'utf8')) as Record<string, unknown>);
  for (let i = 0; i < ATIF_FILES; i += 1) {
    const t = { ...(sources[i % sources.length] as Record<string, unknown>) };
    t['trajectory_id'] = `trial-${i}`;
    t['extra'] = { ...((t['extra'] as object | undefined) ?? {}), task_id: `task-${i % 50}` };
    writeFileSync(join(dir, `trial-${String(i).padStart(6, '0')}.json`), JSON.stringify(t));
  }
  return dir;
}

async function otlpDump(): Promise<string> {
  const file = join(out, `workers-${OTLP_MB}mb-v1.binpb`);
  const have = await stat(file).catch(() => null);
  if (have !== null && have.size >= OTLP_MB * 1e6) return file;
  const info = await writeAgentTraceDump(file, OTLP_MB * 1e6, recordTrialPool(1500));
  console.log(
    `workers: wrote ${file}: ${(info.bytes / 1e6).toFixed(0)} MB, ${info.trials} trials, ${info.spans} spans`,
  );
  return file;
}

interface Run {
  code: number;
  trials: number;
  seconds: number;
  maxRssBytes: number;
}

function score(input: string, dir: string, workers: number): Run {
  const r = spawnSync(
    process.execPath,
    [child, 'score', input, dir, '--workers', String(workers), '--no-report', '--run-id', 'bench'],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const line = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || line === '')
    throw new Error(`workers: score --workers ${workers} failed: ${r.stderr}`);
  const run = JSON.parse(line) as Run;
  if (run.code !== 0) throw new Error(`workers: score --workers ${workers} exited ${run.code}: ${r.stderr}`);
  return run;
}

async function compare(name: string, input: string): Promise<void> {
  const dirs = [join(out, `workers-${name}-w1`), join(out, `workers-${name}-w${WORKERS}`)];
  const times: number[][] = [[], []];
  const rss: number[][] = [[], []];
  let trials = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [side, workers] of [1, WORKERS].entries()) {
      await rm(dirs[side] as string, { recursive: true, force: true });
      const run = score(input, dirs[side] as string, workers);
      (times[side] as number[]).push(run.seconds);
      (rss[side] as number[]).push(run.maxRssBytes);
      trials = run.trials;
    }
  }
  for (const file of COMPARED) {
    const [a, b] = dirs.map((d) => readFileSync(join(d, file)));
    if (!(a as Buffer).equals(b as Buffer))
      throw new Error(`workers: ${name}: ${file} differs between 1 and ${WORKERS} workers`);
  }
  const [t1, tN] = times.map((t) => median(t));
  const [r1, rN] = rss.map((r) => median(r) / 2 ** 20);
  console.log(
    `workers: ${name} (${trials} trials): --workers 1 ${(t1 as number).toFixed(2)} s, --workers ${WORKERS} ${(tN as number).toFixed(2)} s: ` +
      `speed-up ${((t1 as number) / (tN as number)).toFixed(2)}x (medians of ${ROUNDS}; rounds ${times.map((t) => t.map((s) => s.toFixed(2)).join('/')).join(' vs ')}); ` +
      `peak RSS ${(r1 as number).toFixed(0)} vs ${(rN as number).toFixed(0)} MiB; same ${COMPARED.join(', ')}`,
  );
}

console.log(
  `workers: ${availableParallelism()} cores; --workers 1 vs --workers ${WORKERS}, whole processes of the built CLI`,
);
if (PARTS.has('atif')) await compare('atif', atifRun());
if (PARTS.has('otlp')) await compare('otlp', await otlpDump());
