/**
 * `evalstream gym aggregate` on a large rollout file: generates (once, cached in bench/out) rollouts
 * with realistic rows — large `response` objects with usage, several numeric verifier fields, 2–16
 * repeats per task, completion order — then times the whole aggregate (read + validate every line,
 * merge-write the sorted rows, statistics, metrics file) in process, and prints wall and CPU time
 * (all threads of the process: the scan and the merged file use worker threads), peak RSS,
 * throughput and the speed-up over Gym's own code, which needs about 108 s for 200k rollouts on this
 * kind of machine (the target is 50×, about 2 s). On a loaded machine compare CPU seconds.
 *
 *   npm run bench -- gym                      # 200k rollouts
 *   GYM_BENCH_ROLLOUTS=50000 npm run bench -- gym
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { aggregateRollouts } from '../src/gym/aggregate-rollouts.js';
import { generateGymRollouts } from './generate-gym-rollouts.js';

const rollouts = Number(process.env['GYM_BENCH_ROLLOUTS'] ?? 200_000);
/** Gym's end-to-end time for 200k rollouts on this kind of machine (issue #5), scaled linearly. */
const GYM_SECONDS_200K = 108;
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
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${availableParallelism()} core(s)`,
);

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
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const gym = (GYM_SECONDS_200K * rollouts) / 200_000;
  console.log(
    `${label}: ${result.rows} rollouts, ${(bytes / 1e6).toFixed(0)} MB in → ${wall.toFixed(2)} s wall, ` +
      `${cpuSeconds.toFixed(2)} s CPU (${result.scanWorkers || 1} scan thread(s)), ${(bytes / 1e6 / wall).toFixed(0)} MB/s, ` +
      `metrics file ${(metrics / 1e6).toFixed(0)} MB, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; ` +
      `${(gym / wall).toFixed(1)}× Gym's ${gym.toFixed(0)} s (target 50×)`,
  );
}

await timeIt('gym aggregate (merge + metrics)', true);
await timeIt('gym aggregate --no-merge', false);
