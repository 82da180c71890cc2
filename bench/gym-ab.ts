/**
 * Before/after for `gym aggregate` on a machine whose speed drifts: builds git revision REV in a
 * temporary worktree and the working tree as it is, then times the two built CLIs on the 200k-rollout
 * bench file in alternating pairs (the order flipped every pair, outputs deleted before each run), and
 * prints every pair, each side's median and range of wall time, median CPU and peak RSS, and in how
 * many pairs the working tree was faster. It also checks that both write the same merged and metrics
 * files (md5), so a speed-up that changes the output shows.
 *
 *   node --import tsx bench/gym-ab.ts b74ed89                    # 10 pairs, merge + metrics
 *   node --import tsx bench/gym-ab.ts b74ed89 --pairs 6 --no-merge --threads 1
 *
 * The input is the one `npm run bench -- gym` generates (bench/out/gym-rollouts-200000.jsonl;
 * generated here when missing). Needs git; the worktree is removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateGymRollouts } from './generate-gym-rollouts.js';
import { timeCli, type CliTiming } from './time-cli.js';
import { pandasMedian } from '../src/gym/stats/pandas-median.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    pairs: { type: 'string', default: '10' },
    'no-merge': { type: 'boolean', default: false },
    threads: { type: 'string' },
  },
});
const rev = positionals[0];
if (rev === undefined) {
  console.error('usage: node --import tsx bench/gym-ab.ts REV [--pairs N] [--no-merge] [--threads N]');
  process.exit(2);
}
const pairs = Math.max(1, Number(values.pairs));
const merge = !values['no-merge'];
const root = join(import.meta.dirname, '..');
const out = join(import.meta.dirname, 'out');
const input = join(out, 'gym-rollouts-200000.jsonl');
if (!existsSync(input)) await generateGymRollouts({ path: input, rollouts: 200_000 });

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const worktree = mkdtempSync(join(tmpdir(), 'evalstream-gym-ab-'));
rmSync(worktree, { recursive: true });
run('git', ['worktree', 'add', '--detach', '--quiet', worktree, rev], root);
try {
  const label = run('git', ['log', '-1', '--format=%h %s', rev], root).trim();
  symlinkSync(join(root, 'node_modules'), join(worktree, 'node_modules'));
  // each side's installed CLI, bin/evalstream.js: tsc's dist/src, and the bundle where the revision has one
  for (const tree of [worktree, root]) {
    run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], tree);
    const bundler = join(tree, 'scripts', 'build-cli.mjs');
    if (existsSync(bundler)) run(process.execPath, [bundler], tree);
  }
  const sides = {
    before: { bin: join(worktree, 'bin', 'evalstream.js'), runs: [] as CliTiming[] },
    now: { bin: join(root, 'bin', 'evalstream.js'), runs: [] as CliTiming[] },
  };
  console.log(
    `gym aggregate${merge ? '' : ' --no-merge'}${values.threads ? ` --threads ${values.threads}` : ''}, ` +
      `${pairs} alternating pairs: before = ${label}; now = the working tree`,
  );
  const md5 = (path: string): string =>
    existsSync(path) ? createHash('md5').update(readFileSync(path)).digest('hex') : '(missing)';
  const outputs: Record<string, string[]> = {};
  for (let p = 0; p < pairs; p++) {
    const order = p % 2 === 0 ? (['before', 'now'] as const) : (['now', 'before'] as const);
    const line: string[] = [];
    for (const side of order) {
      const output = join(out, `gym-ab-${side}.jsonl`);
      const metrics = output.replace(/\.jsonl$/, '_aggregate_metrics.json');
      for (const f of [output, metrics]) rmSync(f, { force: true });
      const args = ['gym', 'aggregate', '-i', input, '-o', output, ...(merge ? [] : ['--no-merge'])];
      if (values.threads) args.push('--threads', values.threads);
      const t = await timeCli(sides[side].bin, args);
      sides[side].runs.push(t);
      line.push(
        `${side} ${t.wall.toFixed(2)} s (${t.cpu.toFixed(2)} s CPU, ${(t.rss / 1048576).toFixed(0)} MB)`,
      );
      if (p === 0) outputs[side] = [merge ? md5(output) : '(not merged)', md5(metrics)];
      for (const f of [output, metrics]) rmSync(f, { force: true });
    }
    console.log(`pair ${p + 1}: ${line.join(', ')}`);
  }
  for (const [side, s] of Object.entries(sides)) {
    const walls = s.runs.map((r) => r.wall);
    console.log(
      `${side}: median ${pandasMedian(walls).toFixed(2)} s wall (${Math.min(...walls).toFixed(2)}–${Math.max(...walls).toFixed(2)}), ` +
        `median CPU ${pandasMedian(s.runs.map((r) => r.cpu)).toFixed(2)} s, median peak RSS ${(pandasMedian(s.runs.map((r) => r.rss)) / 1048576).toFixed(0)} MB`,
    );
  }
  const faster = sides.now.runs.filter((r, i) => r.wall < (sides.before.runs[i] as CliTiming).wall).length;
  console.log(`now faster in ${faster} of ${pairs} pairs`);
  const same = JSON.stringify(outputs['before']) === JSON.stringify(outputs['now']);
  console.log(
    same
      ? `outputs identical (merged ${outputs['now']?.[0]}, metrics ${outputs['now']?.[1]})`
      : `OUTPUTS DIFFER: before ${outputs['before']?.join(' ')}, now ${outputs['now']?.join(' ')}`,
  );
} finally {
  run('git', ['worktree', 'remove', '--force', worktree], root);
}
