/**
 * bench/pack-kept: what `serve` pays to keep a scored trial (`KeptTrials.put` packs its trial record
 * and score records into a `PackedTreeStore`), on real records: 5,000 bench/live trials scored by a
 * live engine (one 9-span agent trial per export, 8 per task), their kept records read back, then
 * packed into a fresh store PACK_BENCH_ROUNDS times (default 8). Prints the best and median µs per
 * record and the ratio to the baseline measured in the same run: `JSON.stringify` of the same
 * records (one pass reading every key and value, and printing them). Run pinned
 * (`taskset -c 1 npm run bench -- pack-kept`) for steadier figures.
 */
import { decodeExportRequest } from '../src/serve/decode-export-request.js';
import { decodingBodyHandler } from '../src/serve/decoding-body-handler.js';
import { PackedTreeStore } from '../src/util/packed-tree-store.js';
import { pandasMedian } from '../src/gym/stats/pandas-median.js';
import { agentTrialPayloads } from './agent-trial-payloads.js';
import { benchLiveEngine, feedBodies } from './bench-live-engine.js';

const rounds = Math.max(1, Number(process.env['PACK_BENCH_ROUNDS'] ?? 8));
const trials = 5000;
const { payload } = agentTrialPayloads(8);
let now = 0;
const engine = benchLiveEngine({ settleMs: 200, retainMs: 1 }, () => now);
await feedBodies(
  engine,
  decodingBodyHandler(engine, decodeExportRequest),
  Array.from({ length: trials }, (_, i) => payload(i + 1)),
  (ms) => (now += ms),
);
now += 1000;
engine.tick();
await engine.shutdown();
// what KeptTrials.put packs: the trial item (evidence dropped, output plain) and the score records
const kept = engine.finalTrials();
const records = kept.map((t) => [t.item, t.scores]);
if (records.length !== trials) throw new Error(`scored ${records.length} trials, sent ${trials}`);

const median = (xs: number[]): number => pandasMedian(Float64Array.from(xs), 0, xs.length);
function timed(run: () => void): { best: number; median: number } {
  const us: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    run();
    us.push(((performance.now() - started) * 1000) / records.length);
  }
  return { best: Math.min(...us), median: median(us) };
}

let printed = 0;
const base = timed(() => {
  for (const r of records) printed += JSON.stringify(r).length;
});
let stored = 0;
const pack = timed(() => {
  const store = new PackedTreeStore();
  for (const r of records) store.add(r);
  stored += store.size;
});
if (printed === 0 || stored !== rounds * records.length) throw new Error('nothing measured');
const fmt = (n: number): string => n.toFixed(2);
console.log(
  `baseline (this run): JSON.stringify of the same records, best ${fmt(base.best)} µs, median ${fmt(base.median)} µs per record`,
);
console.log(
  `pack-kept: PackedTreeStore.add of ${records.length} kept records (trial item + ${kept[0]?.scores.length ?? 0} score records), ` +
    `best ${fmt(pack.best)} µs, median ${fmt(pack.median)} µs per record over ${rounds} rounds; ` +
    `${(pack.median / base.median).toFixed(2)}× the baseline`,
);
