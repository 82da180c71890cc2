/**
 * `merge` and `compare` on DuckDB stores and Parquet exports against the same on bundles, in one run:
 * a generated bundle is cut into 3 consecutive shards (by task), each loaded into its own store
 * (`summarize --engine duckdb --db`) and exported to Parquet. Then, each 3 rounds:
 *   - merge: `mergeTableShards` over the 3 Parquet exports vs `mergeBundles` over the 3 shard bundles
 *     (baseline), and whether both summaries are the bytes of the whole bundle's;
 *   - compare's read: `readStoreValues` of one store vs `readBundleValues` of its bundle (baseline).
 *
 *   npm run bench -- merge-stores        (EVALSTREAM_BENCH_SCORES=200000 by default)
 */
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readBundleValues, readStoreValues } from '../src/compare/read-run-values.js';
import { mergeBundles } from '../src/merge/merge-bundles.js';
import { mergeTableShards } from '../src/merge/merge-table-shards.js';
import { summarizeBundle } from '../src/bundle/summarize-bundle.js';
import { exportParquet } from '../src/sinks/duckdb/export-parquet.js';
import { openDuckDB } from '../src/sinks/duckdb/open-duckdb.js';
import { duckdbBundleSummaryEngine } from '../src/sql-summary/duckdb-bundle-summary-engine.js';
import { generateScoreBundle } from './generate-score-bundle.js';

const SCORES = Number(process.env['EVALSTREAM_BENCH_SCORES'] ?? 200_000);
const TRIALS_PER_TASK = 50;
const tasks = Math.max(3, Math.round(SCORES / (TRIALS_PER_TASK * 4)));
const base = join(import.meta.dirname, 'out', `merge-stores-${tasks * TRIALS_PER_TASK * 4}`);
const whole = join(base, 'whole');
const ROUNDS = 3;

await generateScoreBundle({ dir: whole, tasks, trialsPerTask: TRIALS_PER_TASK });
// merge needs every shard's metadata.json; the generator writes none
const metadata = join(whole, 'metadata.json');
if (!existsSync(metadata))
  await writeFile(
    metadata,
    JSON.stringify({
      duration_sec: null,
      finished_at: null,
      labels: {},
      sdk_version: null,
      started_at: null,
      target: null,
    }),
  );
await summarizeBundle(whole, { reportWriter: null });
const expected = await readFile(join(whole, 'summary.json'));

/** The lines of a JSONL file, grouped into 3 consecutive pieces cut at task boundaries. */
async function cutByTask(file: string, third: number): Promise<string[][]> {
  const pieces: string[][] = [[], [], []];
  const order = new Map<string, number>();
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line === '') continue;
    const task = (JSON.parse(line) as { task_id: string }).task_id;
    if (!order.has(task)) order.set(task, order.size);
    pieces[Math.min(2, Math.floor((order.get(task) as number) / third))]?.push(line);
  }
  return pieces;
}

const third = Math.ceil(tasks / 3);
const shards = [0, 1, 2].map((s) => join(base, `shard-${s}`));
const trials = await cutByTask(join(whole, 'trials.jsonl'), third);
const scores = await cutByTask(join(whole, 'scores.jsonl'), third);
for (const [s, dir] of shards.entries()) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const f of ['run.json', 'metadata.json', 'tasks.jsonl']) await copyFile(join(whole, f), join(dir, f));
  await writeFile(join(dir, 'trials.jsonl'), (trials[s] ?? []).map((l) => l + '\n').join(''));
  await writeFile(join(dir, 'scores.jsonl'), (scores[s] ?? []).map((l) => l + '\n').join(''));
  const db = join(base, `shard-${s}.duckdb`);
  await rm(db, { force: true });
  await summarizeBundle(dir, { reportWriter: null, summaryEngine: duckdbBundleSummaryEngine({ db }) });
  const session = await openDuckDB(db, { readOnly: true });
  await exportParquet(session.connection, join(base, `parquet-${s}`));
  session.close();
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

console.log(`merge-stores: ${tasks * TRIALS_PER_TASK * 4} scores in 3 shards (${base})`);
for (let round = 1; round <= ROUNDS; round++) {
  const outs = [join(base, 'merged-bundles'), join(base, 'merged-parquet')];
  for (const o of outs) await rm(o, { recursive: true, force: true });
  const bundles = await timed(() => mergeBundles(shards, outs[0] as string));
  const parquet = await timed(() =>
    mergeTableShards(
      [0, 1, 2].map((s) => ({ path: join(base, `parquet-${s}`), runId: null })),
      outs[1] as string,
    ),
  );
  const same = await Promise.all(
    outs.map(async (o) => (await readFile(join(o, 'summary.json'))).equals(expected)),
  );
  const bundleRead = await timed(() => readBundleValues(shards[0] as string));
  const storeRead = await timed(() => readStoreValues(join(base, 'shard-0.duckdb')));
  console.log(
    `round ${round}: merge parquet ${parquet.toFixed(2)} s vs bundles ${bundles.toFixed(2)} s = ${(parquet / bundles).toFixed(2)}x` +
      ` (summary = one process: parquet ${same[1]}, bundles ${same[0]}); compare read: store ${storeRead.toFixed(2)} s` +
      ` vs bundle ${bundleRead.toFixed(2)} s = ${(storeRead / bundleRead).toFixed(2)}x`,
  );
}
