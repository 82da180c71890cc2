/**
 * Where a `score` process's resident memory goes, over time: runs `evalstream score <dump>` (the built
 * CLI, pinned to one core) with `bench/rss-probe.mjs` preloaded, and prints, per phase of the run
 * (`stream`: trials read, scored and written; `summary`: from `summary.json` on; `report`: while
 * `report.html` is written), the largest resident size and what Node accounted for at that moment
 * (V8 heap used and reserved, new and old space, external memory and array buffers), then the peak
 * resident size the kernel recorded. What is resident but accounted for by neither the heap nor the
 * buffers is native memory: the allocator's arenas, code, thread stacks.
 *
 *   node --import tsx bench/rss-timeline.ts <dump> [score flags...]
 *   (EVALSTREAM_RSS_TIMELINE_NODE_FLAGS: extra node flags, e.g. --trace-gc; the environment is passed
 *   on, so MALLOC_ARENA_MAX=2 and the like apply to the child)
 */
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pinnedToOneCore } from './run-pinned-child.js';
import { BIN } from './time-cli.js';

interface Sample {
  ms: number;
  phase: string;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, number>;
}

const [dump, ...flags] = process.argv.slice(2);
if (dump === undefined) throw new Error('usage: rss-timeline.ts <dump> [score flags...]');
const out = join(import.meta.dirname, 'out', `rss-timeline-${process.pid}`);
const samplesFile = `${out}.json`;
const nodeFlags = (process.env['EVALSTREAM_RSS_TIMELINE_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
const node = [
  ...nodeFlags,
  '--import',
  join(import.meta.dirname, 'rss-probe.mjs'),
  '--import',
  join(import.meta.dirname, 'usage-probe.mjs'),
  BIN,
  'score',
  dump,
  '--out',
  out,
  '--no-progress',
  '--json',
  ...flags,
];
const [cmd, argv] = pinnedToOneCore
  ? ['taskset', ['-c', '0', process.execPath, ...node]]
  : [process.execPath, node];
const child = spawn(cmd as string, argv as string[], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, EVALSTREAM_RSS_PROBE_FILE: samplesFile, EVALSTREAM_RSS_PROBE_DIR: out },
});
let stderr = '';
let stdout = '';
child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
if (code !== 0) throw new Error(`score exited ${code}:\n${stderr.slice(-4000)}`);
const samples = JSON.parse(await readFile(samplesFile, 'utf8')) as Sample[];
await rm(samplesFile, { force: true });
await rm(out, { recursive: true, force: true });

const mb = (n: number | undefined): string => `${((n ?? 0) / 1048576).toFixed(0)}`.padStart(5);
const usage = JSON.parse(/\n@usage (.*)\n$/.exec(stderr)?.[1] ?? '{}') as { rss?: number; cpu?: number };
const gcLines = `${stdout}\n${stderr}`.split('\n').filter((l) => /Mark-Compact|Scavenge|Mark-sweep/.test(l));
console.log(`score ${dump} ${flags.join(' ')}: ${stdout.split('\n').find((l) => l.startsWith('{')) ?? ''}`);
console.log(
  `  peak RSS ${mb(usage.rss)} MB, CPU ${usage.cpu?.toFixed(1)} s, ${samples.length} samples` +
    (gcLines.length > 0 ? `, ${gcLines.length} --trace-gc lines` : ''),
);
console.log(
  '  phase      at s   rss  heapTotal heapUsed  new  old  large  code  external arrayBuffers  rss-heapTotal-external',
);
const line = (label: string, s: Sample): void => {
  const sp = s.spaces;
  console.log(
    `  ${label.padEnd(8)} ${(s.ms / 1000).toFixed(1).padStart(6)} ${mb(s.rss)} ${mb(s.heapTotal)}     ${mb(s.heapUsed)}   ${mb(sp['new_space'])}${mb(sp['old_space'])}  ${mb(sp['large_object_space'])} ${mb(sp['code_space'])}    ${mb(s.external)}        ${mb(s.arrayBuffers)}   ${mb(s.rss - s.heapTotal - s.external)}`,
  );
};
for (const phase of ['stream', 'summary', 'report', 'end']) {
  const of = samples.filter((s) => s.phase === phase);
  if (of.length === 0) continue;
  const peak = of.reduce((a, b) => (b.rss > a.rss ? b : a));
  line(`${phase}`, peak);
}
// the stream phase at its tenths, to see what grows with the trials
const stream = samples.filter((s) => s.phase === 'stream');
console.log('  during the stream (every tenth):');
for (let i = 1; i <= 10; i += 1) {
  const s = stream[Math.min(stream.length - 1, Math.floor((stream.length * i) / 10) - 1)];
  if (s !== undefined) line(`  ${i * 10}%`, s);
}
// with --trace-gc: the full collections, whose `->` figure is the live heap at that moment
if (process.env['EVALSTREAM_RSS_TIMELINE_GC'] === '1')
  for (const l of gcLines.filter((g) => !g.includes('Scavenge'))) console.log(l);
