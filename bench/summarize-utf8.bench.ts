/**
 * What the UTF-8 check of bundle files costs `summarize`: `evalstream summarize --no-report` of a
 * generated 1M-output bundle with the check and without it (the check resolved to one that finds
 * nothing, bench/without-utf8-check.mjs), in alternating child processes (pinned to one core when
 * `taskset` exists). First, each variant reads a bundle with a byte that is not UTF-8 (checked:
 * exit 2; unchecked: read with U+FFFD, exit 0), which shows the unchecked child really skips it.
 *
 *   npm run bench -- summarize-utf8   (EVALSTREAM_BENCH_SCORES, EVALSTREAM_BENCH_ROUNDS: default 1M, 3)
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateScoreBundle } from './generate-score-bundle.js';
import { pinnedToOneCore, runPinnedChild } from './run-pinned-child.js';

const SCORES = Number(process.env['EVALSTREAM_BENCH_SCORES'] ?? 1_000_000);
const ROUNDS = Number(process.env['EVALSTREAM_BENCH_ROUNDS'] ?? 3);
const TRIALS_PER_TASK = 50;
const tasks = Math.max(1, Math.round(SCORES / (TRIALS_PER_TASK * 4)));
const dir = join(import.meta.dirname, 'out', `scores-${tasks * TRIALS_PER_TASK * 4}`);
await generateScoreBundle({ dir, tasks, trialsPerTask: TRIALS_PER_TASK });
const bytes = (await stat(join(dir, 'scores.jsonl'))).size + (await stat(join(dir, 'trials.jsonl'))).size;

interface ChildResult {
  code: number;
  ms: number;
  cpuMs: number;
}
const child = join(import.meta.dirname, 'summarize-cli-child.ts');
const hook = join(import.meta.dirname, 'without-utf8-check.mjs');
const run = (checked: boolean, bundle: string, out: string): Promise<ChildResult> =>
  runPinnedChild<ChildResult>(
    [
      '--import',
      'tsx',
      ...(checked ? [] : ['--import', hook]),
      child,
      bundle,
      '--out',
      out,
      '--no-report',
      '--engine',
      'memory',
    ],
    checked ? 'summarize (checked)' : 'summarize (unchecked)',
  );

const work = await mkdtemp(join(tmpdir(), 'evalstream-bench-utf8-'));
try {
  // a small bundle with one byte that is not UTF-8 in a trial's output text
  const small = join(work, 'small');
  await generateScoreBundle({ dir: small, tasks: 2, trialsPerTask: 2 });
  const trials = await readFile(join(small, 'trials.jsonl'));
  trials[trials.indexOf('"output_text": "') + 16] = 0xff;
  await writeFile(join(small, 'trials.jsonl'), trials);
  const refused = await run(true, small, join(work, 'small-a'));
  const read = await run(false, small, join(work, 'small-b'));
  if (refused.code !== 2 || read.code !== 0)
    throw new Error(
      `the unchecked child does not skip the check (exit ${refused.code} checked, ${read.code} unchecked)`,
    );

  const times: Record<'checked' | 'unchecked', ChildResult[]> = { checked: [], unchecked: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const checked of round % 2 === 0 ? [true, false] : [false, true]) {
      const out = join(work, `out-${round}-${checked}`);
      const r = await run(checked, dir, out);
      if (r.code !== 0) throw new Error(`summarize exited ${r.code}`);
      times[checked ? 'checked' : 'unchecked'].push(r);
      await rm(out, { recursive: true, force: true });
    }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const fmt = (xs: ChildResult[], k: 'ms' | 'cpuMs'): string =>
    xs.map((x) => (x[k] / 1000).toFixed(2)).join(', ');
  console.log(
    `summarize-utf8: ${tasks * TRIALS_PER_TASK * 4} outputs, ${(bytes / 1e6).toFixed(0)} MB of scores.jsonl + trials.jsonl, ` +
      `${ROUNDS} alternating rounds${pinnedToOneCore ? ', one core' : ''}`,
  );
  for (const k of ['ms', 'cpuMs'] as const) {
    const c = median(times.checked.map((x) => x[k]));
    const u = median(times.unchecked.map((x) => x[k]));
    console.log(
      `  ${k === 'ms' ? 'wall' : 'cpu '} s: checked ${fmt(times.checked, k)}; unchecked ${fmt(times.unchecked, k)}; ` +
        `median ratio ${(c / u).toFixed(3)}x`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
