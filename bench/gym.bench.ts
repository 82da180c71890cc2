/**
 * `evalstream gym aggregate` on a large rollout file: generates (once, cached in bench/out) rollouts
 * with realistic rows — large `response` objects with usage, several numeric verifier fields, 2–16
 * repeats per task, completion order — then times the whole aggregate (read + validate every line,
 * merge-write the sorted rows, statistics, metrics file) with and without `--no-merge`, and prints
 * wall and CPU time (user + system of all threads), peak RSS, throughput and the speed-up over Gym's
 * own code, which needs about 108 s for 200k rollouts on this kind of machine (the target is 50×,
 * about 2 s; Gym itself cannot run here, so that figure is the issue's), and the ratios to two
 * baselines measured in the same run: reading the input once and finding its line ends, and
 * `JSON.parse` of every line in one thread. When other work shares the cores, compare CPU seconds. The outputs of an earlier run are deleted
 * before each timed run (freeing a 770 MB file is file-system work, not the aggregation's).
 *
 * What is timed is said in the output:
 * - `built CLI` (default when `dist/` is at least as new as `src/gym`): `node bin/evalstream.js gym
 *   aggregate …` in a child process, as a user runs it (Node start-up included; worker threads load
 *   compiled JavaScript in ~30 ms);
 * - `TypeScript in process` (when `dist/` is missing or older, or `GYM_BENCH_MODE=ts`): the sources
 *   through tsx in this process; each worker thread then spends ~0.5 s CPU compiling its TypeScript.
 *
 *   npm run build && npm run bench -- gym     # 200k rollouts, built CLI
 *   GYM_BENCH_ROLLOUTS=50000 npm run bench -- gym
 *   GYM_BENCH_THREADS=1 npm run bench -- gym  # `--threads 1`: no worker threads
 *   GYM_BENCH_RUNS=5 npm run bench -- gym     # five runs of each mode (default 3), median and range
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { aggregateRollouts } from '../src/gym/aggregate-rollouts.js';
import { generateGymRollouts } from './generate-gym-rollouts.js';
import { BIN, timeCli } from './time-cli.js';
import { pandasMedian } from '../src/gym/stats/pandas-median.js';
import { newestTs } from './newest-ts.js';

const rollouts = Number(process.env['GYM_BENCH_ROLLOUTS'] ?? 200_000);
/** `--threads` (default: the CLI's own default). */
const threads = process.env['GYM_BENCH_THREADS'];
/** Gym's end-to-end time for 200k rollouts on this kind of machine (issue #5), scaled linearly. */
const GYM_SECONDS_200K = 108;
const root = join(import.meta.dirname, '..');
const out = join(import.meta.dirname, 'out');
mkdirSync(out, { recursive: true });
const input = join(out, `gym-rollouts-${rollouts}.jsonl`);
if (!existsSync(input)) {
  const t = performance.now();
  const g = await generateGymRollouts({ path: input, rollouts });
  console.log(
    `generated ${g.rows} rollouts (${(g.bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}
const bytes = statSync(input).size;
const output = join(out, `gym-merged-${rollouts}.jsonl`);

const bundle = join(root, 'dist', 'cli', 'evalstream.js');
const distFresh =
  existsSync(bundle) &&
  statSync(bundle).mtimeMs >=
    Math.max(
      newestTs(join(root, 'src', 'gym')),
      statSync(join(root, 'src', 'cli', 'commands', 'gym.ts')).mtimeMs,
    );
const mode = process.env['GYM_BENCH_MODE'] ?? (distFresh ? 'cli' : 'ts');
if (mode === 'cli' && !distFresh) {
  console.log('dist/ is missing or older than src/gym: run `npm run build` first');
  process.exit(2);
}
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${availableParallelism()} core(s); threads ${threads ?? 'default'}; timing ${
    mode === 'cli'
      ? 'the built CLI (node bin/evalstream.js gym aggregate, child process)'
      : `the TypeScript sources in process through tsx${distFresh ? '' : ' (dist/ missing or older than src/gym; `npm run build` to time the built CLI)'}`
  }`,
);

interface Timing {
  wall: number;
  cpu: number;
  rss: number;
  rows: number | null;
  metricsPath: string;
}

/** Runs the installed CLI in a child that reports its own CPU (all threads) and peak RSS at exit. */
async function timeBuiltCli(merge: boolean): Promise<Timing> {
  const args = [
    'gym',
    'aggregate',
    '-i',
    input,
    '-o',
    output,
    ...(merge ? [] : ['--no-merge']),
    ...(threads === undefined ? [] : ['--threads', threads]),
  ];
  const t = await timeCli(BIN, args);
  const loaded = /Loaded (\d+) rollout/.exec(t.stdout);
  return {
    wall: t.wall,
    cpu: t.cpu,
    rss: t.rss / 1048576,
    rows: loaded ? Number(loaded[1]) : null,
    metricsPath: output.replace(/\.jsonl$/, '_aggregate_metrics.json'),
  };
}

/** Runs `aggregateRollouts` in this process (TypeScript through tsx). */
async function timeInProcess(merge: boolean): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await aggregateRollouts({
    inputGlob: input,
    output,
    merge,
    ...(threads === undefined ? {} : { parallel: { workers: Number(threads) } }),
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    wall,
    cpu: (cpu.user + cpu.system) / 1e6,
    rss: process.resourceUsage().maxRSS / 1024,
    rows: result.rows,
    metricsPath: result.metricsPath ?? '',
  };
}

/**
 * The baseline measured in this run: reading the input once in 128 KiB reads and finding every line
 * end (no JSON looked at), in this process. No aggregation can take less than reading its input.
 */
function readFloorSeconds(): number {
  const t = performance.now();
  const fd = openSync(input, 'r');
  const buf = Buffer.allocUnsafe(128 << 10);
  let lines = 0;
  try {
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      for (let i = buf.indexOf(10); i >= 0 && i < n; i = buf.indexOf(10, i + 1)) lines += 1;
    }
  } finally {
    closeSync(fd);
  }
  if (lines === 0) throw new Error(`${input} has no lines`);
  return (performance.now() - t) / 1000;
}
const floor = Math.min(readFloorSeconds(), readFloorSeconds());
console.log(
  `baseline (this run): reading ${(bytes / 1e6).toFixed(0)} MB and finding its line ends, best of two: ${floor.toFixed(2)} s`,
);

/**
 * The second baseline measured in this run: `JSON.parse` of every line, in this thread (what any
 * reader built on `JSON.parse` pays before looking at a row; `gym aggregate` splits it over threads).
 */
function parseFloorSeconds(): number {
  const t = performance.now();
  const fd = openSync(input, 'r');
  let buf = Buffer.allocUnsafe(1 << 20);
  let end = 0;
  let rows = 0;
  try {
    for (
      let n = readSync(fd, buf, 0, buf.length, null);
      n > 0;
      n = readSync(fd, buf, end, buf.length - end, null)
    ) {
      end += n;
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl >= 0 && nl < end; nl = buf.indexOf(10, start)) {
        if (nl > start) rows += JSON.parse(buf.toString('utf8', start, nl)) === null ? 0 : 1;
        start = nl + 1;
      }
      buf.copy(buf, 0, start, end);
      end -= start;
      if (end === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
    }
  } finally {
    closeSync(fd);
  }
  if (rows === 0) throw new Error(`${input} has no rows`);
  return (performance.now() - t) / 1000;
}
const parseCpu0 = process.cpuUsage();
const parseFloor = parseFloorSeconds();
const parseUsage = process.cpuUsage(parseCpu0);
/** CPU seconds of the `JSON.parse` baseline: the fairer yardstick for CPU when the machine is loaded. */
const parseFloorCpu = (parseUsage.user + parseUsage.system) / 1e6;
console.log(
  `baseline (this run): JSON.parse of every line in one thread: ${parseFloor.toFixed(2)} s wall, ${parseFloorCpu.toFixed(2)} s CPU`,
);

interface Run {
  wall: number;
  cpu: number;
  rss: number;
}

async function timeIt(label: string, merge: boolean): Promise<Run> {
  // Outputs of an earlier run are removed first: replacing a 770 MB file makes the file system free its
  // blocks (~1 s of kernel time on this machine), which is not the aggregation's work.
  for (const f of [output, output.replace(/\.jsonl$/, '_aggregate_metrics.json')]) rmSync(f, { force: true });
  const t = mode === 'cli' ? await timeBuiltCli(merge) : await timeInProcess(merge);
  const metrics = existsSync(t.metricsPath) ? statSync(t.metricsPath).size : 0;
  console.log(
    `${label}: ${t.rows} rollouts, ${(bytes / 1e6).toFixed(0)} MB in → ${t.wall.toFixed(2)} s wall, ` +
      `${t.cpu.toFixed(2)} s CPU, ${(bytes / 1e6 / t.wall).toFixed(0)} MB/s, ` +
      `metrics file ${(metrics / 1e6).toFixed(0)} MB, peak RSS ${t.rss.toFixed(0)} MB; ` +
      `${(t.wall / floor).toFixed(1)}× the read baseline, ${(t.wall / parseFloor).toFixed(2)}× the JSON.parse one ` +
      `(CPU ${(t.cpu / parseFloorCpu).toFixed(2)}×); ` +
      `${(gym / t.wall).toFixed(1)}× faster than Gym's ${gym.toFixed(0)} s`,
  );
  return t;
}

/** Gym's time for this many rollouts (the issue's 108 s for 200k, scaled linearly). */
const gym = (GYM_SECONDS_200K * rollouts) / 200_000;
/**
 * GYM_BENCH_RUNS (default 3): timed runs of each mode, the two modes alternating so that both see
 * the same stretches of a machine whose speed drifts; the summary gives the median and the range.
 */
const runs = Math.max(1, Number(process.env['GYM_BENCH_RUNS'] ?? 3));
const modes = [
  { label: 'gym aggregate (merge + metrics)', merge: true, runs: [] as Run[] },
  { label: 'gym aggregate --no-merge', merge: false, runs: [] as Run[] },
];
for (let i = 0; i < runs; i++) for (const m of modes) m.runs.push(await timeIt(m.label, m.merge));
for (const m of modes) {
  const walls = m.runs.map((r) => r.wall);
  const med = pandasMedian(walls);
  console.log(
    `${m.label}, ${runs} run(s): median ${med.toFixed(2)} s wall (${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)}), ` +
      `median CPU ${pandasMedian(m.runs.map((r) => r.cpu)).toFixed(2)} s, peak RSS up to ${Math.max(...m.runs.map((r) => r.rss)).toFixed(0)} MB; ` +
      `${(med / floor).toFixed(1)}× the read baseline, ${(med / parseFloor).toFixed(2)}× the JSON.parse one ` +
      `(median CPU ${(pandasMedian(m.runs.map((r) => r.cpu)) / parseFloorCpu).toFixed(2)}× its CPU); ` +
      `${(gym / med).toFixed(1)}× faster than Gym's ${gym.toFixed(0)} s ` +
      `(the issue's figure; target 50×, about ${(gym / 50).toFixed(1)} s)`,
  );
}
