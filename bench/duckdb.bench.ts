/**
 * The SQL summary against DuckDB's own speed. On a generated SDK bundle (default ~1M score outputs,
 * `bench/generate-score-bundle.ts`), each in a fresh child process, alternating, `ES_BENCH_DUCKDB_RUNS`
 * rounds (default 3):
 *
 * - baseline: DuckDB's `read_ndjson` of `scores.jsonl` + one grouped aggregation, via
 *   `@duckdb/node-api` (a whole process: start-up included);
 * - `evalstream summarize --engine duckdb --no-report` of the bundle (`bin/evalstream.js`, after `npm run build`);
 * - `evalstream summarize --engine memory --no-report`, for reference.
 *
 * Prints wall and CPU seconds and peak RSS of each, the medians, and the ratios to the baseline of
 * the same round (target: duckdb ≤ 3×), and checks both engines wrote the same summary.json bytes.
 *
 *   npm run build && npm run bench -- duckdb
 *   ES_BENCH_DUCKDB_OUTPUTS=50e6 ES_BENCH_DUCKDB_ENGINES=duckdb ES_BENCH_DUCKDB_RUNS=1 npm run bench -- duckdb
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readScoreRows } from '../src/bundle/read-score-rows.js';
import type { ScoreRecord } from '../src/model/score-record.js';
import { ensureStoreSchema } from '../src/sinks/duckdb/store-tables.js';
import { openDuckDB } from '../src/sinks/duckdb/open-duckdb.js';
import { StoreRows } from '../src/sinks/duckdb/store-rows.js';
import { appendAll } from '../src/util/append-all.js';
import { generateScoreBundle } from './generate-score-bundle.js';
import { BIN, timeCli } from './time-cli.js';

const ROOT = join(import.meta.dirname, '..');
const OUTPUTS = Number(process.env['ES_BENCH_DUCKDB_OUTPUTS'] ?? 1e6);
const RUNS = Number(process.env['ES_BENCH_DUCKDB_RUNS'] ?? 3);
const ENGINES = (process.env['ES_BENCH_DUCKDB_ENGINES'] ?? 'duckdb,memory').split(',');
const TRIALS_PER_TASK = 50;
/** Score outputs per trial of the generated bundle (measured: 991,320 outputs for 150,000 trials). */
const OUTPUTS_PER_TRIAL = 6.6;

interface Measure {
  wall: number;
  cpu: number;
  rss: number;
}

if (!existsSync(join(ROOT, 'dist', 'cli', 'evalstream.js'))) {
  throw new Error('duckdb bench: build the CLI first (npm run build)');
}

const tasks = Math.max(1, Math.round(OUTPUTS / (TRIALS_PER_TASK * OUTPUTS_PER_TRIAL)));
const dir = join(import.meta.dirname, 'out', `duckdb-bundle-${tasks}`);
const t = performance.now();
await generateScoreBundle({ dir, tasks, trialsPerTask: TRIALS_PER_TASK });
const scores = join(dir, 'scores.jsonl');
console.log(
  `duckdb: bundle of ${tasks * TRIALS_PER_TASK} trials ready in ${((performance.now() - t) / 1000).toFixed(1)} s ` +
    `(scores.jsonl ${(statSync(scores).size / 1e6).toFixed(0)} MB)`,
);

/** Runs `script` (an ES module body) in a fresh Node process; it prints its resource use last. */
function child(script: string): Measure {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const wall = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`duckdb bench child failed (${r.status}): ${r.stderr}`);
  const usage = JSON.parse(r.stdout.trim().split('\n').pop() as string) as { cpu: number; rss: number };
  return { wall, cpu: usage.cpu, rss: usage.rss };
}

/** The child's last line: its CPU seconds and peak RSS (written past any stubbed stdout). */
const USAGE = `const u = process.resourceUsage();
(await import('node:fs')).writeSync(1, '\\n' + JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS * 1024 }) + '\\n');`;

function baseline(): Measure {
  const file = scores.replaceAll("'", "''");
  return child(`import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const reader = await connection.runAndReadAll(
  "SELECT metric_type, count(*), avg(len(outputs)) FROM read_ndjson('${file}') GROUP BY ALL");
if (reader.getRows().length === 0) throw new Error('no rows');
connection.closeSync();
instance.closeSync();
${USAGE}`);
}

/** `evalstream summarize` as a user runs it (`bin/evalstream.js`, a whole process). */
async function summarize(engine: string, out: string): Promise<Measure> {
  rmSync(out, { recursive: true, force: true });
  const args = ['summarize', dir, '--out', out, '--engine', engine, '--no-report'];
  const { wall, cpu, rss } = await timeCli(BIN, args, { cwd: ROOT });
  return { wall, cpu, rss };
}

const rows: Record<string, Measure[]> = { baseline: [] };
for (const e of ENGINES) rows[e] = [];
for (let round = 1; round <= RUNS; round++) {
  const base = baseline();
  rows['baseline']!.push(base);
  const line = [`round ${round}: baseline ${fmt(base)}`];
  for (const e of ENGINES) {
    const m = await summarize(e, join(dir, '..', `duckdb-summary-${e}`));
    rows[e]!.push(m);
    line.push(
      `${e} ${fmt(m)} = ${(m.wall / base.wall).toFixed(2)}× wall, ${(m.cpu / base.cpu).toFixed(2)}× CPU`,
    );
  }
  console.log(line.join(' | '));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const base = rows['baseline']!;
if (RUNS > 0)
  console.log(
    `baseline (read_ndjson + GROUP BY, whole process): median ${median(base.map((m) => m.wall)).toFixed(2)} s wall, ` +
      `${median(base.map((m) => m.cpu)).toFixed(2)} s CPU, peak RSS ${mb(median(base.map((m) => m.rss)))}`,
  );
for (const e of RUNS > 0 ? ENGINES : []) {
  const ms = rows[e]!;
  const ratios = ms.map((m, i) => m.wall / (base[i] as Measure).wall);
  const cpuRatios = ms.map((m, i) => m.cpu / (base[i] as Measure).cpu);
  console.log(
    `summarize --engine ${e}: median ${median(ms.map((m) => m.wall)).toFixed(2)} s wall ` +
      `(${median(ratios).toFixed(2)}× the baseline of its round; rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}), ` +
      `${median(cpuRatios).toFixed(2)}× its CPU, peak RSS ${mb(median(ms.map((m) => m.rss)))}` +
      (e === 'duckdb' ? ` — target ≤ 3×: ${median(ratios) <= 3 ? 'met' : 'missed'}` : ''),
  );
}
if (RUNS > 0 && ENGINES.includes('duckdb') && ENGINES.includes('memory')) {
  const a = readFileSync(join(dir, '..', 'duckdb-summary-duckdb', 'summary.json'));
  const b = readFileSync(join(dir, '..', 'duckdb-summary-memory', 'summary.json'));
  console.log(`same summary.json bytes from both engines: ${a.equals(b) ? 'yes' : 'NO'}`);
}
for (const e of ENGINES) rmSync(join(dir, '..', `duckdb-summary-${e}`), { recursive: true, force: true });
function fmt(m: Measure): string {
  return `${m.wall.toFixed(2)} s (${m.cpu.toFixed(2)} s CPU, ${mb(m.rss)})`;
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}

/*
 * The store sink's append path (`StoreRows` → chunked appender, as `toDuckDB` and `writeRun` write):
 * the bundle's first score rows (at most `ES_BENCH_DUCKDB_APPEND_SCORES`, default 300,000), already
 * parsed, buffered and appended in batches of 50,000 rows into a DuckDB file; rows/s counts scores +
 * their outputs.
 */
{
  const limit = Number(process.env['ES_BENCH_DUCKDB_APPEND_SCORES'] ?? 300_000);
  const parsed: ScoreRecord[] = [];
  for await (const batch of readScoreRows(dir, { onTruncatedLine: () => undefined, register: false })) {
    appendAll(parsed, batch.rows);
    if (parsed.length >= limit) break;
  }
  parsed.length = Math.min(parsed.length, limit);
  const file = join(dir, '..', 'duckdb-append.duckdb');
  rmSync(file, { force: true });
  const db = await openDuckDB(file, {});
  try {
    await ensureStoreSchema(db.connection);
    const started = performance.now();
    const startedCpu = process.cpuUsage();
    await db.connection.run('BEGIN TRANSACTION');
    const store = new StoreRows('bench');
    let rows = 0;
    for (let i = 0; i < parsed.length; i++) {
      store.addScore(i, parsed[i] as ScoreRecord, 1);
      if (store.scoreRowCount >= 50_000) rows += await store.appendTo(db.connection);
    }
    rows += await store.appendTo(db.connection);
    await db.connection.run('COMMIT');
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(startedCpu);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.log(
      `store sink append: ${rows.toLocaleString('en')} rows (scores + outputs) in ${seconds.toFixed(2)} s = ` +
        `${Math.round(rows / seconds).toLocaleString('en')} rows/s; ${cpuSeconds.toFixed(2)} s CPU = ` +
        `${Math.round(rows / cpuSeconds).toLocaleString('en')} rows per CPU second`,
    );
  } finally {
    db.close();
    rmSync(file, { force: true });
  }
}
