/**
 * `npm run bench -- serve-bombs`: peak and settled resident memory of `evalstream serve` while 40
 * clients send a gzip bomb each at once (a ~100 kB body inflating to 100 MiB), with the shared body
 * budget (`--max-body-memory`, default 128 MiB) and, as the baseline in the same run, with a budget
 * too large to bind (40 × the per-body limit: each body is bounded only by its own 64 MiB limit).
 * After the settle time the server reports what Node holds (heap, external, array buffers: the
 * `memory-probe` preload), is made to collect its garbage, and is measured again; a third server, the
 * bounded one with glibc told to map every allocation of 16 KiB or more on its own
 * (`MALLOC_MMAP_THRESHOLD_=16384`), shows how much of what stays resident the allocator keeps. The
 * servers run one after the other, in turn, twice each.
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

interface RunResult {
  before: number;
  peak: number;
  after: number;
  afterGc: number;
  probe: string;
  codes: string;
}

async function run(budgetArgs: string[], env: Record<string, string>): Promise<RunResult> {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      join(root, 'bench', 'memory-probe.mjs'),
      '--import',
      'tsx',
      join(root, 'bench', 'serve-child.ts'),
      'serve',
      '--http',
      '127.0.0.1:0',
      '--no-grpc',
      ...budgetArgs,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
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
  child.kill('SIGUSR2');
  while (!log.includes('memory-probe after-gc')) await new Promise((r) => setTimeout(r, 50));
  const afterGc = await rssOf(child.pid!);
  const probe = log
    .split('\n')
    .filter((l) => l.startsWith('memory-probe'))
    .map((l) => l.slice('memory-probe '.length))
    .join('; ');
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return { before, peak, after, afterGc, probe, codes: [...counts].map(([s, n]) => `${n}×${s}`).join(' ') };
}

const mib = (n: number): string => `${(n / (1 << 20)).toFixed(0)} MiB`;
const configs = [
  ['unbounded', ['--max-body-memory', String(40 * (64 << 20))], {}],
  ['bounded', [], {}],
  ['bounded+mmap', [], { MALLOC_MMAP_THRESHOLD_: '16384' }],
] as const;
const results = new Map<string, RunResult[]>(configs.map(([name]) => [name, []]));
for (let round = 0; round < 2; round++) {
  for (const [name, args, env] of configs) {
    const r = await run([...args], env);
    results.get(name)!.push(r);
    console.log(
      `${name.padEnd(12)} rss before ${mib(r.before)}, peak ${mib(r.peak)}, ${SETTLE_MS / 1000} s after ${mib(r.after)}, ` +
        `after a forced GC ${mib(r.afterGc)} (${r.codes})\n             node's view (MiB): ${r.probe}`,
    );
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const m = (name: string, key: 'before' | 'peak' | 'after' | 'afterGc'): number =>
  median(results.get(name)!.map((r) => r[key]));
console.log(
  `40 gzip bombs at once: peak RSS ${mib(m('bounded', 'peak'))} bounded vs ${mib(m('unbounded', 'peak'))} unbounded ` +
    `(${(m('bounded', 'peak') / m('unbounded', 'peak')).toFixed(2)}×); ` +
    `after ${SETTLE_MS / 1000} s ${mib(m('bounded', 'after'))} vs ${mib(m('unbounded', 'after'))}; ` +
    `after a forced GC ${mib(m('bounded', 'afterGc'))} vs ${mib(m('unbounded', 'afterGc'))} ` +
    `(before the attack ${mib(m('bounded', 'before'))}); bounded with MALLOC_MMAP_THRESHOLD_=16384: ` +
    `peak ${mib(m('bounded+mmap', 'peak'))}, after ${mib(m('bounded+mmap', 'after'))}, ` +
    `after a forced GC ${mib(m('bounded+mmap', 'afterGc'))} (before ${mib(m('bounded+mmap', 'before'))})`,
);
