/**
 * Before/after for `evalstream serve` under bench/live's load on a machine whose speed drifts:
 * alternating pairs of bench/live runs (the order flipped every pair), printing every run's figures
 * and each side's medians, and in how many pairs the second side ("now") had the lower p99.
 *
 * Two ways to choose the sides:
 *   node --import tsx bench/live-ab.ts 760eb74               # REV's build against the working tree
 *   node --import tsx bench/live-ab.ts --before="--max-pending-trials 1000" \
 *        --now="--max-pending-trials 10000"                  # two sets of serve options, one build
 * (the options' values start with `--`, so they are given with `=`).
 * With a revision it is built in a temporary worktree (removed at the end) and served through
 * LIVE_BENCH_CLI; the working tree is built too. `--before` / `--now` add serve options to that
 * side either way (LIVE_BENCH_SERVE_ARGS).
 *
 * The load is bench/live's, by default the target's: open loop at 50,000 spans/s in 50-trial
 * exports, no `--db`, 30 s after a 5 s warm-up, a 1 s baseline (`--pairs N`, default 4). Any
 * LIVE_BENCH_* variable set by the caller overrides these defaults for both sides.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pandasMedian } from '../src/gym/stats/pandas-median.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pairs: { type: 'string', default: '4' },
    before: { type: 'string', default: '' },
    now: { type: 'string', default: '' },
  },
});
const rev = positionals[0];
if (rev === undefined && values.before === '' && values.now === '') {
  console.error(
    'usage: node --import tsx bench/live-ab.ts [REV] [--before="SERVE ARGS"] [--now="SERVE ARGS"] [--pairs N]',
  );
  process.exit(2);
}
const pairs = Math.max(1, Number(values.pairs));
const root = join(import.meta.dirname, '..');
const load: Record<string, string> = {
  LIVE_BENCH_SECONDS: '30',
  LIVE_BENCH_RATE: '50000',
  LIVE_BENCH_TRIALS_PER_REQUEST: '50',
  LIVE_BENCH_DB: '0',
  LIVE_BENCH_WARMUP_SECONDS: '5',
  LIVE_BENCH_BASELINE_SECONDS: '1',
};
for (const key of Object.keys(load)) if (process.env[key] !== undefined) load[key] = process.env[key]!;

/** One run's figures, parsed from bench/live's output (NaN where a line is missing). */
interface LiveRun {
  spansPerSec: number;
  p99: number;
  engineUsPerSpan: number;
  /** The server's CPU per span during the load (all threads). */
  serverUsPerSpan: number;
  /** Sustained spans/s against the same run's bare node:http baseline. */
  vsBaseline: number;
  /** The bench's own senders' CPU per span accepted (they share the machine with the server). */
  senderUsPerSpan: number;
  waits: number;
  equal: boolean;
}

function parseRun(text: string): LiveRun {
  const num = (re: RegExp): number => Number(re.exec(text)?.[1] ?? NaN);
  return {
    spansPerSec: num(/sustained (\d+) spans\/s/),
    p99: num(/p99 ([\d.]+) ms per answer/),
    engineUsPerSpan: num(
      /the engine thread\) [\d.]+ s of CPU \(\d+ % of the load's wall time, ([\d.]+) µs\/span/,
    ),
    serverUsPerSpan: num(/server CPU [\d.]+ s during load \(([\d.]+) µs\/span/),
    vsBaseline: num(/against the baseline: ([\d.]+)× its spans\/s/),
    senderUsPerSpan: num(/µs\/request, ([\d.]+) µs\/span accepted/),
    waits: num(/waited for room[^:]*: (\d+) waits/),
    equal: /in bundle: EQUAL/.test(text),
  };
}

function liveRun(env: Record<string, string>): Promise<LiveRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'live.bench.ts')],
      { cwd: root, env: { ...process.env, ...load, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(parseRun(out)) : reject(new Error(`bench/live exited with ${code}:\n${out}`)),
    );
  });
}

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

let worktree: string | null = null;
let beforeLabel = 'the working tree';
const beforeEnv: Record<string, string> = {};
if (rev !== undefined) {
  worktree = mkdtempSync(join(tmpdir(), 'evalstream-live-ab-'));
  rmSync(worktree, { recursive: true });
  run('git', ['worktree', 'add', '--detach', '--quiet', worktree, rev], root);
  beforeLabel = run('git', ['log', '-1', '--format=%h %s', rev], root).trim();
  symlinkSync(join(root, 'node_modules'), join(worktree, 'node_modules'));
  // the revision's own build script: a build before the bundled CLI is tsc alone
  run('npm', ['run', '--silent', 'build'], worktree);
  beforeEnv['LIVE_BENCH_CLI'] = join(worktree, 'bin', 'evalstream.js');
}
try {
  run('npm', ['run', '--silent', 'build'], root);
  const sides = {
    before: { env: { ...beforeEnv, LIVE_BENCH_SERVE_ARGS: values.before }, runs: [] as LiveRun[] },
    now: { env: { LIVE_BENCH_SERVE_ARGS: values.now }, runs: [] as LiveRun[] },
  };
  const args = (s: string): string => (s === '' ? '' : ` (serve ${s})`);
  console.log(
    `bench/live, ${pairs} alternating pairs: before = ${beforeLabel}${args(values.before)}; now = the working tree${args(values.now)}`,
  );
  console.log(
    `load: ${Object.entries(load)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  const show = (r: LiveRun): string =>
    `${r.spansPerSec} spans/s (${r.vsBaseline}× bare node:http), p99 ${r.p99} ms, ` +
    `server ${r.serverUsPerSpan} µs/span (engine thread ${r.engineUsPerSpan}), senders ${r.senderUsPerSpan} µs/span, ` +
    `${Number.isNaN(r.waits) ? 'waits not counted (a build without the counter)' : `${r.waits} waits`}${r.equal ? '' : ', ACCEPTED ≠ STORED'}`;
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const);
    const line: string[] = [];
    for (const side of order) {
      const r = await liveRun(sides[side].env);
      sides[side].runs.push(r);
      line.push(`${side} ${show(r)}`);
    }
    console.log(`pair ${p + 1}: ${line.join('; ')}`);
  }
  const med = (xs: number[]): string => {
    const known = xs.filter((x) => !Number.isNaN(x));
    return known.length === 0 ? 'n/a' : pandasMedian(known).toFixed(1);
  };
  for (const [side, s] of Object.entries(sides)) {
    console.log(
      `${side}: median ${med(s.runs.map((r) => r.spansPerSec))} spans/s ` +
        `(${med(s.runs.map((r) => r.vsBaseline))}× bare node:http), p99 ${med(s.runs.map((r) => r.p99))} ms ` +
        `(${Math.min(...s.runs.map((r) => r.p99))}–${Math.max(...s.runs.map((r) => r.p99))}), server ` +
        `${med(s.runs.map((r) => r.serverUsPerSpan))} µs/span, engine thread ` +
        `${med(s.runs.map((r) => r.engineUsPerSpan))} µs/span, senders ${med(s.runs.map((r) => r.senderUsPerSpan))} µs/span, ` +
        `${med(s.runs.map((r) => r.waits))} waits`,
    );
  }
  const lower = sides.now.runs.filter((r, i) => r.p99 < (sides.before.runs[i] as LiveRun).p99).length;
  console.log(`now had the lower p99 in ${lower} of ${pairs} pairs`);
} finally {
  if (worktree !== null) run('git', ['worktree', 'remove', '--force', worktree], root);
}
