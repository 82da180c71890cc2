/**
 * bench/report-otlp: `evalstream report` on a run scored from one large OTLP dump, and `score` of
 * that run's bundle: every trial's trace evidence is a ref into the same file (with the trial's
 * trace ids), and both read each trial's trace. They must read the dump once, not once per trial
 * (once per trial, a 100 MB dump of 2,585 trials takes minutes).
 *   baseline (same run): reading and decoding the dump once (`readOtlpFileSync`).
 * REPORT_OTLP_BENCH_MB (default 100) sets the dump's size; the built CLI is used when `dist/` exists.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOtlpFileSync } from '../src/evidence/otlp/read-otlp-file-sync.js';
import { recordTrialPool, writeAgentTraceDump } from './generate-agent-traces.js';

const mb = Number(process.env['REPORT_OTLP_BENCH_MB'] ?? 100);
const dir = mkdtempSync(join(tmpdir(), 'report-otlp-bench-'));
const dump = join(dir, 'dump.otlp.pb');
const made = await writeAgentTraceDump(dump, mb * 1e6, recordTrialPool(1500));
const root = join(import.meta.dirname, '..');
const built = existsSync(join(root, 'dist', 'cli', 'evalstream.js'));
const cli = built
  ? [join(root, 'bin', 'evalstream.js')]
  : ['--import', 'tsx', join(root, 'src', 'cli', 'evalstream.ts')];
const run = (args: string[]): number => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...cli, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`evalstream ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return (performance.now() - t0) / 1000;
};
const t0 = performance.now();
const requests = readOtlpFileSync(dump).length;
const decode = (performance.now() - t0) / 1000;
const out = join(dir, 'run');
const score = run(['score', dump, '--out', out, '--no-progress']);
const report = run(['report', out]);
const rescore = run(['score', out, '--out', join(dir, 'again'), '--no-progress']);
console.log(
  `report-otlp (${built ? 'built CLI' : 'sources through tsx'}): ${(made.bytes / 1e6).toFixed(0)} MB dump, ${made.trials} trials, ${made.spans} spans, ${requests} requests`,
);
console.log(`baseline (this run): read + decode the dump once ${decode.toFixed(2)} s`);
console.log(
  `score --out (with report.html) ${score.toFixed(2)} s; report alone ${report.toFixed(2)} s = ${(report / decode).toFixed(1)}× one read of the dump; ` +
    `the bundle scored again (traces read back from the dump) ${rescore.toFixed(2)} s = ${(rescore / decode).toFixed(1)}×`,
);
rmSync(dir, { recursive: true, force: true });
