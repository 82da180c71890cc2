/**
 * `evalstream gym aggregate` on a large rollout file: generates (once, cached in bench/out) rollouts
 * with realistic rows — large `response` objects with usage, several numeric verifier fields, 2–16
 * repeats per task, completion order — then times the whole aggregate (read + validate every line,
 * merge-write the sorted rows, statistics, metrics file) in process, and prints wall and CPU time,
 * peak RSS and throughput. Gym's own code needs about 108 s for 200k rollouts on this kind of machine.
 *
 *   npm run bench -- gym                      # 200k rollouts
 *   GYM_BENCH_ROLLOUTS=50000 npm run bench -- gym
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { aggregateRollouts } from '../src/gym/aggregate-rollouts.js';
import { generateGymRollouts } from './generate-gym-rollouts.js';

const rollouts = Number(process.env['GYM_BENCH_ROLLOUTS'] ?? 200_000);
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

async function timeIt(label: string, merge: boolean): Promise<void> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await aggregateRollouts({
    inputGlob: input,
    output: join(out, `gym-merged-${rollouts}.jsonl`),
    merge,
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const metrics = result.metricsPath === null ? 0 : statSync(result.metricsPath).size;
  console.log(
    `${label}: ${result.rows} rollouts, ${(bytes / 1e6).toFixed(0)} MB in → ${wall.toFixed(2)} s wall, ` +
      `${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, ${(bytes / 1e6 / wall).toFixed(0)} MB/s, ` +
      `metrics file ${(metrics / 1e6).toFixed(0)} MB, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
}

await timeIt('gym aggregate (merge + metrics)', true);
await timeIt('gym aggregate --no-merge', false);
