/**
 * `evalstream score` of many small trials on disk, the shape of an agent benchmark run: a Harbor job
 * of EVALSTREAM_BENCH_TRIALS (default 4,000) trial directories, each a copy of the bundled example's
 * completed trial (result.json, config.json, an ATIF trajectory, agent log, verifier output and
 * reward), and a directory of as many ATIF trajectory files. Generated once into bench/out.
 * Each is scored by the built CLI in a child process (report included), alternated with the
 * baseline of the same round: a process that reads every file of the same tree (directories listed,
 * files read whole and synchronously, one after another). Prints wall and CPU medians of ROUNDS
 * (default 3) and the ratio to the baseline.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, timeCli } from './time-cli.js';
import { pandasMedian as median } from '../src/gym/stats/pandas-median.js';

const trials = Number(process.env['EVALSTREAM_BENCH_TRIALS'] ?? 4000);
const rounds = Math.max(1, Number(process.env['EVALSTREAM_BENCH_ROUNDS'] ?? 3));
const root = join(import.meta.dirname, '..');
const out = join(import.meta.dirname, 'out');
const example = join(root, 'examples', 'harbor-job');
const trialName = 'hello-world__Ab3dE9f';
const files = [
  'result.json',
  'config.json',
  'agent/trajectory.json',
  'agent/terminus_2.log',
  'verifier/test-stdout.txt',
  'verifier/reward.txt',
];

if (!existsSync(join(root, 'dist', 'cli', 'evalstream.js')))
  throw new Error('many-trials bench: build the CLI first (npm run build)');

/** The Harbor job and the ATIF directory, written once per size. */
function generate(): { job: string; atif: string } {
  const job = join(out, `harbor-job-${trials}`);
  const atif = join(out, `atif-files-${trials}`);
  if (!existsSync(join(job, '.generated'))) {
    rmSync(job, { recursive: true, force: true });
    rmSync(atif, { recursive: true, force: true });
    mkdirSync(atif, { recursive: true });
    mkdirSync(job, { recursive: true });
    for (const f of ['config.json', 'result.json'])
      writeFileSync(join(job, f), readFileSync(join(example, f)));
    const texts = files.map((f) => readFileSync(join(example, trialName, f), 'utf8'));
    const trajectory = texts[2] as string;
    for (let i = 0; i < trials; i += 1) {
      const name = `hello-world__T${String(i).padStart(6, '0')}`;
      const dir = join(job, name);
      mkdirSync(join(dir, 'agent'), { recursive: true });
      mkdirSync(join(dir, 'verifier'), { recursive: true });
      files.forEach((f, j) => writeFileSync(join(dir, f), (texts[j] as string).split(trialName).join(name)));
      writeFileSync(
        join(atif, `${name}.atif.json`),
        trajectory.replace(/"session_id": "[^"]*"/, `"session_id": "s${i}"`),
      );
    }
    writeFileSync(join(job, '.generated'), `${trials}\n`);
  }
  return { job, atif };
}

const { job, atif } = generate();
const readAll = join(import.meta.dirname, 'read-tree-child.mjs');
for (const [label, input] of [
  ['Harbor job', job],
  ['ATIF files', atif],
] as const) {
  const base: { wall: number; cpu: number }[] = [];
  const score: { wall: number; cpu: number; rss: number }[] = [];
  const dir = join(out, `many-trials-run-${process.pid}`);
  for (let r = 0; r < rounds; r += 1) {
    base.push(await timeCli(readAll, [input]));
    try {
      score.push(await timeCli(BIN, ['score', input, '--out', dir, '--no-progress']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const bw = median(base.map((b) => b.wall));
  const sw = median(score.map((s) => s.wall));
  const sc = median(score.map((s) => s.cpu));
  console.log(
    `many-trials: score of ${trials} trials (${label}): ${sw.toFixed(2)} s wall, ${sc.toFixed(2)} s CPU, ` +
      `peak RSS ${(Math.max(...score.map((s) => s.rss)) / 1048576).toFixed(0)} MB; ` +
      `${(sw / bw).toFixed(2)}x the baseline (reading every file of the tree: ${bw.toFixed(2)} s), ` +
      `${((sw / trials) * 1e6).toFixed(0)} µs per trial`,
  );
}
