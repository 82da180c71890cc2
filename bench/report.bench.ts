/**
 * bench/report: what `report.html` costs, against the same command without it, in the same run.
 *   1. `summarize` of a 1M-output bundle (bench/generate-score-bundle.ts) with and without the report:
 *      peak RSS (goal ≤ 1 GB), wall time ratio (goal ≤ 2×), report size (goal ≤ 50 MB).
 *   2. `score` of an OTLP dump (bench/generate-agent-traces.ts) with and without the report: bytes the
 *      process read, against the dump's size (the report must not read the dump again).
 * Each command runs in a fresh child process (bench/report-child.ts), best of REPORT_BENCH_ROUNDS
 * (default 2) alternating rounds. REPORT_BENCH_SCORES (default 1,000,000) and REPORT_BENCH_DUMP_MB
 * (default 100) set the sizes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateScoreBundle } from './generate-score-bundle.js';
import { recordTrialPool, writeAgentTraceDump } from './generate-agent-traces.js';

interface Figures {
  code: number;
  ms: number;
  maxRssMB: number;
  readMB: number;
}

const SCORES = Number(process.env['REPORT_BENCH_SCORES'] ?? 1_000_000);
const DUMP_MB = Number(process.env['REPORT_BENCH_DUMP_MB'] ?? 100);
const ROUNDS = Number(process.env['REPORT_BENCH_ROUNDS'] ?? 2);
const child = join(import.meta.dirname, 'report-child.ts');

function run(args: string[]): Figures {
  const r = spawnSync(process.execPath, ['--import', 'tsx', child, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  const figures = JSON.parse(line) as Figures;
  if (r.status !== 0 || figures.code !== 0)
    throw new Error(`evalstream ${args.join(' ')} failed: ${r.stderr}`);
  return figures;
}

function best(rounds: Figures[]): Figures {
  return rounds.reduce((a, b) => (b.ms < a.ms ? b : a));
}

const fmt = (f: Figures): string =>
  `${(f.ms / 1000).toFixed(2)} s, peak RSS ${f.maxRssMB.toFixed(0)} MB, read ${f.readMB.toFixed(0)} MB`;

// 1. summarize of a bundle with SCORES outputs
const trialsPerTask = 50;
const tasks = Math.max(1, Math.round(SCORES / (trialsPerTask * 4)));
const bundle = join(import.meta.dirname, 'out', `scores-${tasks * trialsPerTask * 4}`);
await generateScoreBundle({ dir: bundle, tasks, trialsPerTask });
const without: Figures[] = [];
const withReport: Figures[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  without.push(run(['summarize', bundle, '--no-report']));
  withReport.push(run(['summarize', bundle]));
}
const a = best(without);
const b = best(withReport);
const reportBytes = statSync(join(bundle, 'report.html')).size;
console.log(
  `summarize of ${tasks * trialsPerTask} trials / ${tasks * trialsPerTask * 4} outputs, best of ${ROUNDS}:`,
);
console.log(`  baseline --no-report: ${fmt(a)}`);
console.log(`  with report.html:     ${fmt(b)}; report.html ${(reportBytes / 1e6).toFixed(1)} MB`);
console.log(
  `  ratio: time ${(b.ms / a.ms).toFixed(2)}× (goal ≤ 2×), peak RSS ${(b.maxRssMB / a.maxRssMB).toFixed(2)}× ` +
    `(goal ≤ 1 GB: ${b.maxRssMB <= 1024 ? 'met' : 'not met'}), report ${reportBytes <= 50e6 ? '≤' : '>'} 50 MB`,
);

// 2. score of an OTLP dump
if (DUMP_MB > 0) {
  const dir = mkdtempSync(join(tmpdir(), 'report-bench-'));
  const dump = join(dir, 'dump.otlp.pb');
  const made = await writeAgentTraceDump(dump, DUMP_MB * 1e6, recordTrialPool(1500));
  const dumpMB = made.bytes / 1e6;
  const scoreWithout = run(['score', dump, '--out', join(dir, 'a'), '--no-report', '--no-progress']);
  const scoreWith = run(['score', dump, '--out', join(dir, 'b'), '--no-progress']);
  console.log(`score of a ${dumpMB.toFixed(0)} MB OTLP dump (${made.trials} trials):`);
  console.log(`  baseline --no-report: ${fmt(scoreWithout)}`);
  console.log(`  with report.html:     ${fmt(scoreWith)}`);
  console.log(
    `  extra bytes read for the report: ${(scoreWith.readMB - scoreWithout.readMB).toFixed(1)} MB ` +
      `(${((scoreWith.readMB - scoreWithout.readMB) / dumpMB).toFixed(2)}× the dump; a second read would be ≥ 1×); ` +
      `time ${(scoreWith.ms / scoreWithout.ms).toFixed(2)}×, peak RSS ${(scoreWith.maxRssMB / scoreWithout.maxRssMB).toFixed(2)}×`,
  );
  rmSync(dir, { recursive: true, force: true });
}
