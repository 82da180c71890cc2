/**
 * The SQL engine on every golden example of the foundation's summary tests: this file loads
 * `test/summary/*.test.ts` with `buildSummary` wrapped to record each input and result, lets those
 * tests run (they assert the in-memory engine's hand-computed values), then recomputes every
 * recorded input with `summarizeWithDuckDB` and requires the same summary.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BuildSummaryInput } from '../../src/summary/build-summary.js';
import type { Summary } from '../../src/model/summary.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { writeRun } from '../../src/sinks/duckdb/write-run.js';
import { summarizeStoreRun } from '../../src/sql-summary/summarize-store-run.js';
import { withTestDb } from '../sinks/duckdb-test-db.js';
import { expectSummariesClose } from './expect-summaries-close.js';

interface Recorded {
  input: BuildSummaryInput & { scores: unknown[] };
  output: Summary;
}

const recorded = vi.hoisted(() => [] as Recorded[]);

vi.mock('../../src/summary/build-summary.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/summary/build-summary.js')>();
  return {
    ...original,
    buildSummary(input: BuildSummaryInput): Summary {
      // Materialise iterables once so that both engines see the same records.
      const scores = [...input.scores];
      const trials = input.trials === undefined ? undefined : [...input.trials];
      const copy = { ...input, scores, ...(trials === undefined ? {} : { trials }) };
      const output = original.buildSummary(copy);
      recorded.push({ input: structuredClone(copy) as Recorded['input'], output: structuredClone(output) });
      return output;
    },
  };
});

// Property-based files draw hundreds of random runs; the SQL parity test covers those itself.
const SKIP = new Set(['summary-properties.test.ts']);
const dir = join(import.meta.dirname, '..', 'summary');
for (const file of readdirSync(dir).sort()) {
  if (!file.endsWith('.test.ts') || SKIP.has(file)) continue;
  await import(join(dir, file));
}

describe('SQL summary on the foundation golden examples', () => {
  it('equals buildSummary on every recorded input', async () => {
    expect(recorded.length).toBeGreaterThan(20);
    // One database, one run per distinct input (the same input often recurs across cases).
    const seen = new Set<string>();
    await withTestDb(async (connection) => {
      for (const [i, { input, output }] of recorded.entries()) {
        const key = JSON.stringify([input, output], (_k, v: unknown) =>
          typeof v === 'number' ? String(v) : v,
        );
        if (seen.has(key)) continue;
        seen.add(key);
        const runId = `golden-${i}`;
        await writeRun(connection, {
          runId,
          scores: input.scores as ScoreRecord[],
          tasks: input.tasks ?? null,
          trials: input.trials,
        });
        expectSummariesClose(
          await summarizeStoreRun(connection, runId, { extraScores: input.extraScores }),
          output,
        );
      }
    });
    expect(seen.size).toBeGreaterThan(20);
  }, 600_000);
});
