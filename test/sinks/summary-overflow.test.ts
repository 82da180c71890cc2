/**
 * `toRunBundle`'s `summaryOverflow` (`score --engine auto`): the in-memory summary until the run passes
 * `maxScores` score records, then DuckDB's, from the written files. Either way summary.json and
 * stats.json hold the bytes of the in-memory summary of the whole run, failed trials (before and after
 * the hand-over) included in the error rollup.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../src/model/task.js';
import { toRunBundle, type SummaryOverflow } from '../../src/sinks/to-run-bundle.js';
import { duckdbBundleSummaryEngine } from '../../src/sql-summary/duckdb-bundle-summary-engine.js';
import {
  autoMemoryMaxScores,
  chooseScoreSummaryEngine,
} from '../../src/sql-summary/choose-summary-engine.js';
import { bigRun } from '../report/fixtures/big-run.js';
import { tempDir } from '../bundle/dir-files.js';

const GiB = 1024 ** 3;

/** 300 trials of 30 tasks, 2 scores each; every 50th trial failed (6 of them, spread over the run). */
const run = bigRun(30, 10);

async function writeRun(summaryOverflow: SummaryOverflow | null): Promise<Record<string, string>> {
  const dir = join(await tempDir(), 'run');
  const sink = toRunBundle(dir, { runId: run.runId, summaryOverflow });
  for (const trial of run.trials) {
    await sink.write({
      item: { trial, evidence: null, task: null, origin: { file: 'memory' } },
      scores: run.scores.filter((s) => s.trial_id === trial.id),
      task: run.tasks.find((t) => t.id === trial.task_id) as TaskSpec,
    });
  }
  await sink.shutdown();
  const texts: Record<string, string> = {};
  for (const file of ['summary.json', 'stats.json', 'scores.jsonl', 'trials.jsonl', 'tasks.jsonl'])
    texts[file] = await readFile(join(dir, file), 'utf8');
  return texts;
}

describe('toRunBundle summaryOverflow', () => {
  it('hands the summary to DuckDB past maxScores, with the bytes of the in-memory summary', async () => {
    const memory = await writeRun(null);
    let loads = 0;
    const overflow = (maxScores: number): SummaryOverflow => ({
      maxScores,
      engine: async () => {
        loads += 1;
        return duckdbBundleSummaryEngine();
      },
    });

    // past 250 of the run's 600 score records: trials 0-124 in memory, the rest only in the files
    const handedOver = await writeRun(overflow(250));
    expect(loads).toBe(1);
    expect(handedOver).toEqual(memory);
    const summary = JSON.parse(memory['summary.json'] as string) as Record<string, unknown>;
    expect(summary).toMatchObject({ trial_count: 300, error_count: 6 });

    // a run within the bound never loads the other engine
    const kept = await writeRun(overflow(run.scores.length));
    expect(loads).toBe(1);
    expect(kept).toEqual(memory);
  }, 60_000);
});

describe('chooseScoreSummaryEngine', () => {
  it('keeps score in memory with auto and no store, up to a bound set by the RAM', () => {
    expect(chooseScoreSummaryEngine('auto', false, 50e9, 24 * GiB)).toEqual({
      engine: 'memory',
      overflowMaxScores: 8_000_000,
    });
    expect(autoMemoryMaxScores(4 * GiB)).toBe(2_097_152);
    expect(chooseScoreSummaryEngine('auto', false, 10, 4 * GiB).overflowMaxScores).toBe(2_097_152);
  });

  it('with a store, chooses from the inputs size before reading; an explicit engine is kept', () => {
    expect(chooseScoreSummaryEngine('auto', true, 240e6, 24 * GiB)).toEqual({
      engine: 'memory',
      overflowMaxScores: null,
    });
    expect(chooseScoreSummaryEngine('auto', true, 5e9, 24 * GiB).engine).toBe('duckdb');
    expect(chooseScoreSummaryEngine('memory', false, 50e9, 24 * GiB)).toEqual({
      engine: 'memory',
      overflowMaxScores: null,
    });
    expect(chooseScoreSummaryEngine('duckdb', false, 10, 24 * GiB).engine).toBe('duckdb');
  });
});
