/**
 * `storeSummaryLink`: the summary of a run the store sink wrote in this session is read back from the
 * store (no second load), with the same summary.json bytes as the in-memory engine (float literals
 * of integral ContinuousScore values included); a store that already held the run falls back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleSummaryEngine, BundleSummaryInput } from '../../src/bundle/bundle-summary-engine.js';
import { SummaryAccumulator } from '../../src/bundle/summary-accumulator.js';
import { summaryJsonBytes } from '../../src/bundle/summary-json-bytes.js';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import { toDuckDB } from '../../src/sinks/to-duckdb.js';
import { storeSummaryLink } from '../../src/sql-summary/store-summary-link.js';
import { TASK_A, runR1 } from '../sinks/duckdb-sink-fixtures.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'es-store-link-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const input = (items: ScoredTrial[]): BundleSummaryInput => ({
  dir: root,
  runId: 'R1',
  tasks: [TASK_A],
  scoreBatches: (async function* () {})(),
  trials: (async function* () {
    for (const item of items) if (item.item.trial.error !== null) yield item.item.trial;
  })(),
  extraScores: [],
});

function inMemoryBytes(items: ScoredTrial[]): string {
  const acc = new SummaryAccumulator([TASK_A]);
  for (const item of items) for (const s of item.scores) acc.addScore(s, item.task);
  for (const item of items) if (item.item.trial.error !== null) acc.addTrial(item.item.trial);
  const { summary, isFloat } = acc.finish();
  return Buffer.concat([...summaryJsonBytes(summary, isFloat)]).toString('utf8');
}

/** Runs the sink and the engine as `score` does: both sinks shut down together. */
async function run(file: string, items: ScoredTrial[], fallback: BundleSummaryEngine): Promise<string> {
  const link = storeSummaryLink(file, { runId: 'R1' }, fallback);
  for (const item of items) await link.sink.write(item);
  const [, finished] = await Promise.all([link.sink.shutdown(), link.engine(input(items))]);
  return Buffer.concat([...summaryJsonBytes(finished.summary, finished.isFloat)]).toString('utf8');
}

describe('storeSummaryLink', () => {
  it('summarizes the run it stored, byte-identical to the in-memory engine, without the fallback', async () => {
    const items = runR1(1);
    let fellBack = 0;
    const text = await run(join(root, 'fresh.duckdb'), items, () => {
      fellBack++;
      return Promise.reject(new Error('not expected'));
    });
    expect(fellBack).toBe(0);
    expect(text).toBe(inMemoryBytes(items));
    expect(text).toContain('"value": 1.0');
  });

  it('falls back to the bundle engine when the store held the run before', async () => {
    const file = join(root, 'again.duckdb');
    const first = toDuckDB(file, { runId: 'R1' });
    for (const item of runR1()) await first.write(item);
    await first.shutdown();
    const items = runR1(1);
    let fellBack = 0;
    // the fallback's answer (here: the summary of no scores) is what the engine returns
    const empty = new SummaryAccumulator([TASK_A]).finish();
    const text = await run(file, items, () => {
      fellBack++;
      return Promise.resolve(empty);
    });
    expect(fellBack).toBe(1);
    expect(text).toBe(Buffer.concat([...summaryJsonBytes(empty.summary, empty.isFloat)]).toString('utf8'));
  });
});
