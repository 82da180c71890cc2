import { openDuckDB, type DuckDBSession } from '../sinks/duckdb/open-duckdb.js';
import { InputError } from '../sources/input-error.js';
import { summarizeStoreRun } from '../sql-summary/summarize-store-run.js';
import { pickStoreRun, type StoredRun } from './pick-store-run.js';
import type { RunValues } from './run-values.js';
import { summaryValues } from './summary-values.js';

/**
 * Reads the per-trial values of one run of an evalstream DuckDB store (written by `score --db` or
 * `serve --db`) for `compare`: `runId`, or the newest run the store holds. The store is opened
 * read-only and the run's task values are computed in SQL, in bulk (`summarizeStoreRun`), so the
 * values are those of the `summary.json` the same run's bundle holds, in the same order. Throws an
 * `InputError` naming the store when it cannot be opened, is not an evalstream store, or does not
 * hold the run.
 *
 * @example
 * const b = await readStoreValues('runs/all.duckdb', 'R2');
 * b.outputs.get('verifier_reward.reward')?.get('0'); // [{ trialId: '0-0', value: 1 }, ...]
 */
export async function readStoreValues(
  path: string,
  runId: string | null = null,
  source = runId === null ? path : `${path}#${runId}`,
): Promise<RunValues> {
  let db: DuckDBSession;
  try {
    db = await openDuckDB(path, { readOnly: true });
  } catch (error) {
    throw new InputError(`cannot open the store: ${(error as Error).message}`, { file: path });
  }
  try {
    let runs: StoredRun[];
    try {
      const reader = await db.connection.runAndReadAll('SELECT run_id, written_at FROM runs');
      runs = reader
        .getRows()
        .map(([id, at]) => ({ runId: String(id), writtenAt: at === null ? null : String(at) }));
    } catch {
      throw new InputError('not an evalstream store (no runs table)', { file: path });
    }
    const chosen = pickStoreRun(path, runs, runId);
    const summary = await summarizeStoreRun(db.connection, chosen);
    return { source, runId: chosen, ...summaryValues(summary) };
  } finally {
    db.close();
  }
}
