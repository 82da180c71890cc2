/**
 * `npm run bench -- serve-bombs`: peak and settled resident memory of `evalstream serve` while 40
 * clients send a gzip bomb each at once (a ~100 kB body inflating to 100 MiB), with the shared body
 * budget (`--max-body-memory`, default 128 MiB) and, as the baseline in the same run, with a budget
 * too large to bind (40 × the per-body limit: each body is bounded only by its own 64 MiB limit).
 * The two servers run one after the other, alternating, twice each.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sendGzipBombs } from './send-gzip-bombs.js';

const root = join(import.meta.dirname, '..');
const bomb = gzipSync(Buffer.alloc(100 << 20));
const SETTLE_MS = 20_000;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
}

async function run(
  budgetArgs: string[],
): Promise<{ before: number; peak: number; after: number; codes: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'bench', 'serve-child.ts'),
      'serve',
      '--http',
      '127.0.0.1:0',
      '--no-grpc',
      ...budgetArgs,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  while (!/http:\/\/[^:]+:(\d+)/.test(log)) await new Promise((r) => setTimeout(r, 50));
  const port = /http:\/\/[^:]+:(\d+)/.exec(log)![1];
  await new Promise((r) => setTimeout(r, 1000));
  const before = await rssOf(child.pid!);
  let peak = before;
  const sampler = setInterval(() => {
    rssOf(child.pid!).then(
      (rss) => (peak = Math.max(peak, rss)),
      () => undefined,
    );
  }, 20);
  const statuses = await sendGzipBombs(`http://127.0.0.1:${port}/v1/traces`, bomb, 40);
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const after = await rssOf(child.pid!);
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return { before, peak, after, codes: [...counts].map(([s, n]) => `${n}×${s}`).join(' ') };
}

const mib = (n: number): string => `${(n / (1 << 20)).toFixed(0)} MiB`;
const results: Record<string, { peak: number[]; after: number[] }> = {
  bounded: { peak: [], after: [] },
  unbounded: { peak: [], after: [] },
};
for (let round = 0; round < 2; round++) {
  for (const [name, args] of [
    ['unbounded', ['--max-body-memory', String(40 * (64 << 20))]],
    ['bounded', []],
  ] as const) {
    const r = await run([...args]);
    results[name]!.peak.push(r.peak);
    results[name]!.after.push(r.after);
    console.log(
      `${name.padEnd(9)} rss before ${mib(r.before)}, peak ${mib(r.peak)}, ${SETTLE_MS / 1000} s after ${mib(r.after)} (${r.codes})`,
    );
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const b = results['bounded']!;
const u = results['unbounded']!;
console.log(
  `40 gzip bombs at once: peak RSS ${mib(median(b.peak))} bounded vs ${mib(median(u.peak))} unbounded (${(median(b.peak) / median(u.peak)).toFixed(2)}×); ` +
    `after ${SETTLE_MS / 1000} s ${mib(median(b.after))} vs ${mib(median(u.after))}`,
);
