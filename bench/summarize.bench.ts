/**
 * `evalstream summarize` on a 1M-score bundle against the floor: reading scores.jsonl and
 * JSON.parse-ing every line (what any reader must at least do). Goal: summarize within 2x of the floor.
 *
 *   npm run bench -- summarize        (EVALSTREAM_BENCH_SCORES=200000 for a smaller run)
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { summarizeBundle } from '../src/bundle/summarize-bundle.js';
import { generateScoreBundle } from './generate-score-bundle.js';

const SCORES = Number(process.env['EVALSTREAM_BENCH_SCORES'] ?? 1_000_000);
const TRIALS_PER_TASK = 50;
const tasks = Math.max(1, Math.round(SCORES / (TRIALS_PER_TASK * 4)));
const dir = join(import.meta.dirname, 'out', `scores-${tasks * TRIALS_PER_TASK * 4}`);

let t = performance.now();
await generateScoreBundle({ dir, tasks, trialsPerTask: TRIALS_PER_TASK });
const scoresFile = join(dir, 'scores.jsonl');
const size = (await stat(scoresFile)).size;
const trialsSize = (await stat(join(dir, 'trials.jsonl'))).size;
console.log(
  `summarize: bundle ${dir} ready in ${((performance.now() - t) / 1000).toFixed(1)} s ` +
    `(scores.jsonl ${(size / 1e6).toFixed(0)} MB, trials.jsonl ${(trialsSize / 1e6).toFixed(0)} MB)`,
);

/** The floor: stream the file, split lines, JSON.parse each. */
async function floor(): Promise<number> {
  let lines = 0;
  let carry = '';
  for await (const chunk of createReadStream(scoresFile, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = carry + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      if (nl > start) {
        JSON.parse(text.slice(start, nl));
        lines++;
      }
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry.trim() !== '') {
    JSON.parse(carry);
    lines++;
  }
  return lines;
}

const timings: { floor: number[]; summarize: number[] } = { floor: [], summarize: [] };
// CPU time (user + system, all threads) too: on a shared machine wall time also measures the neighbours
const cpu: { floor: number[]; summarize: number[] } = { floor: [], summarize: [] };
const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
let scoreCount = 0;
for (let round = 0; round < 2; round++) {
  globalThis.gc?.();
  t = performance.now();
  let c = process.cpuUsage();
  const lines = await floor();
  timings.floor.push(performance.now() - t);
  cpu.floor.push(cpuSeconds(c));
  globalThis.gc?.();
  t = performance.now();
  c = process.cpuUsage();
  const result = await summarizeBundle(dir, { reportWriter: null });
  timings.summarize.push(performance.now() - t);
  cpu.summarize.push(cpuSeconds(c));
  scoreCount = result.summary.score_count;
  if (lines !== scoreCount) throw new Error(`floor read ${lines} lines, summarize ${scoreCount} scores`);
}
const best = (xs: number[]): number => Math.min(...xs);
const f = best(timings.floor);
const s = best(timings.summarize);
const fc = best(cpu.floor);
const sc = best(cpu.summarize);
console.log(`summarize: ${scoreCount} scores`);
console.log(
  `  floor (read + JSON.parse every line): ${(f / 1000).toFixed(2)} s  (${(size / 1e6 / (f / 1000)).toFixed(0)} MB/s)`,
);
console.log(
  `  evalstream summarize (in place):      ${(s / 1000).toFixed(2)} s  (${(scoreCount / (s / 1000) / 1000).toFixed(0)}k scores/s)`,
);
console.log(
  `  ratio: ${(s / f).toFixed(2)}x (goal ≤ 2x); best of 2 rounds; rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
);
console.log(
  `  cpu time: floor ${fc.toFixed(2)} s, summarize ${sc.toFixed(2)} s, ratio ${(sc / fc).toFixed(2)}x`,
);
