/**
 * What the bundled CLI saves: each command as a user runs it, `bin/evalstream.js` (the esbuild bundle,
 * `dist/cli/`) against the same program unbundled (tsc's `dist/src/cli/evalstream.js`, one module per
 * source file), alternated in STARTUP_BENCH_ROUNDS rounds (default 5, the order flipped every round).
 * Prints the median CPU (user + system, all threads) and wall seconds of each, and the ratios
 * unbundled / bundled.
 *
 * Start-up: `--version`, `score --help`, and `score`, `inspect`, `summarize` and `gym aggregate` of inputs
 * so small that loading the command's code is most of the run; the CPU ratio is also given above
 * Node's own start-up (`node -e ''`, measured first), which no build can save. Whole runs:
 * `score --no-report` of the ~100 MB OTLP dump that `npm run bench -- ingest` writes
 * (STARTUP_BENCH_DUMP to use another; skipped when missing), `summarize --no-report` of a generated
 * SDK bundle of 1,000 trials, `gym aggregate` of 1,000 generated rollouts.
 *
 *   npm run build && npm run bench -- startup
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pandasMedian as median } from '../src/gym/stats/pandas-median.js';
import { generateGymRollouts } from './generate-gym-rollouts.js';
import { generateScoreBundle } from './generate-score-bundle.js';
import { BIN, timeCli, UNBUNDLED, type CliTiming } from './time-cli.js';

const ROUNDS = Number(process.env['STARTUP_BENCH_ROUNDS'] ?? 5);
const out = join(import.meta.dirname, 'out');
const dump = process.env['STARTUP_BENCH_DUMP'] ?? join(out, 'ingest-100mb-pool1500-v1.binpb');
const scratch = join(out, `startup-${process.pid}`);

if (!existsSync(join(import.meta.dirname, '..', 'dist', 'cli', 'evalstream.js')) || !existsSync(UNBUNDLED)) {
  throw new Error('startup bench: build first (npm run build)');
}
mkdirSync(scratch, { recursive: true });
const bundle = join(out, 'startup-bundle');
await generateScoreBundle({ dir: bundle, tasks: 20, trialsPerTask: 50 });
const rollouts = join(out, 'startup-gym-rollouts-1000.jsonl');
if (!existsSync(rollouts)) await generateGymRollouts({ path: rollouts, rollouts: 1000 });

const root = join(import.meta.dirname, '..');
const fixture = (...path: string[]): string => join(root, ...path);
const commands: [label: string, args: string[]][] = [
  // start-up: each command on an input so small that loading its code is most of the run
  ['--version', ['--version']],
  ['score --help', ['score', '--help']],
  [
    'score --no-report, one small OTLP file',
    [
      'score',
      fixture('test', 'fixtures', 'otlp', 'samples', 'opentelemetry-proto__examples_trace.json'),
      '--out',
      join(scratch, 'run'),
      '--no-report',
    ],
  ],
  [
    'score --no-report, examples/harbor-job',
    ['score', fixture('examples', 'harbor-job'), '--out', join(scratch, 'run'), '--no-report'],
  ],
  ['inspect examples/harbor-job', ['inspect', fixture('examples', 'harbor-job')]],
  [
    'summarize --no-report, examples/sparse-run',
    ['summarize', fixture('examples', 'sparse-run'), '--out', join(scratch, 'summary'), '--no-report'],
  ],
  [
    'gym aggregate, 3.7 KB of rollouts',
    [
      'gym',
      'aggregate',
      '-i',
      fixture('test', 'fixtures', 'gym', 'rollouts.jsonl'),
      '-o',
      join(scratch, 'merged.jsonl'),
    ],
  ],
  // whole runs with real work
  ...(existsSync(dump)
    ? ([
        [
          'score --no-report, 100 MB OTLP dump',
          ['score', dump, '--out', join(scratch, 'run'), '--no-report'],
        ],
      ] as [string, string[]][])
    : []),
  [
    'summarize --no-report, 1,000 trials',
    ['summarize', bundle, '--out', join(scratch, 'summary'), '--no-report'],
  ],
  [
    'gym aggregate, 1,000 rollouts',
    ['gym', 'aggregate', '-i', rollouts, '-o', join(scratch, 'merged.jsonl')],
  ],
];
if (!existsSync(dump))
  console.log(`startup: ${dump} is missing (npm run bench -- ingest writes it): score skipped`);

// Node's own start-up (`node -e ''`, the same preload), which no build of evalstream can save
const nodeAlone: CliTiming[] = [];
for (let round = 0; round < ROUNDS; round += 1) nodeAlone.push(await timeCli('-e', ['']));
const nodeCpu = median(nodeAlone.map((r) => r.cpu));
console.log(`startup: Node alone (node -e ''): CPU ${nodeCpu.toFixed(3)} s (median of ${ROUNDS})`);

const sides = { bundled: BIN, unbundled: UNBUNDLED };
try {
  console.log(
    `startup: bin/evalstream.js (bundled) against dist/src/cli/evalstream.js (unbundled), ${ROUNDS} rounds`,
  );
  for (const [label, args] of commands) {
    const runs: Record<keyof typeof sides, CliTiming[]> = { bundled: [], unbundled: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order =
        round % 2 === 0 ? (['bundled', 'unbundled'] as const) : (['unbundled', 'bundled'] as const);
      for (const side of order) {
        runs[side].push(await timeCli(sides[side], args));
        rmSync(scratch, { recursive: true, force: true });
        mkdirSync(scratch, { recursive: true });
      }
    }
    const cpu = (side: keyof typeof sides): number => median(runs[side].map((r) => r.cpu));
    const wall = (side: keyof typeof sides): number => median(runs[side].map((r) => r.wall));
    const list = (side: keyof typeof sides): string => runs[side].map((r) => r.cpu.toFixed(2)).join(', ');
    const aboveNode = (cpu('unbundled') - nodeCpu) / (cpu('bundled') - nodeCpu);
    console.log(
      `  ${label}: CPU ${cpu('unbundled').toFixed(3)} s unbundled / ${cpu('bundled').toFixed(3)} s bundled = ` +
        `${(cpu('unbundled') / cpu('bundled')).toFixed(2)}x (above Node's own ${aboveNode.toFixed(2)}x); ` +
        `wall ${wall('unbundled').toFixed(3)} s / ` +
        `${wall('bundled').toFixed(3)} s = ${(wall('unbundled') / wall('bundled')).toFixed(2)}x` +
        `  (CPU of each run: unbundled ${list('unbundled')}; bundled ${list('bundled')})`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
