import type { DuckDBConnection } from '@duckdb/node-api';
import { appendTrials } from './append-trials.js';
import { deleteRunRows, ensureStoreSchema } from './store-tables.js';
import type { StoreRunInput } from './store-run-input.js';
import { StoreRows } from './store-rows.js';

/** Options of `writeRun`. */
export interface WriteRunOptions {
  /** Score + output rows buffered before a chunked append (a batch boundary). Default 20 000. */
  batchRows?: number;
  /**
   * Wrap the write in its own transaction (default true). With false the caller owns the
   * transaction (e.g. a sink session that commits at shutdown).
   */
  ownTransaction?: boolean;
  /** Clock for `runs.written_at` (tests pin it). */
  now?: () => Date;
}

/**
 * Writes a whole run into the store, replacing every row it had (idempotent: writing the same run
 * again leaves the same rows). One transaction: a crash mid-write leaves the previous state.
 * Rows are appended in chunks through the appender at batch boundaries.
 *
 * @example
 * await writeRun(connection, { runId: 'r1', tasks, trials, scores, metadata });
 * // → { tasks: 1, trials: 2, scores: 4 }
 */
export async function writeRun(
  connection: DuckDBConnection,
  input: StoreRunInput,
  options: WriteRunOptions = {},
): Promise<{ tasks: number; trials: number; scores: number }> {
  const batchRows = options.batchRows ?? 20_000;
  const own = options.ownTransaction ?? true;
  await ensureStoreSchema(connection);
  if (own) await connection.run('BEGIN TRANSACTION');
  try {
    await deleteRunRows(connection, input.runId);
    const rows = new StoreRows(input.runId);
    rows.addRun(input.tasks !== null, input.metadata ?? null, (options.now?.() ?? new Date()).toISOString());
    let taskOrdinal = 0;
    for (const task of input.tasks ?? []) rows.addTask(taskOrdinal++, task);
    await rows.appendTo(connection);
    const trialCount = await appendTrials(
      connection,
      input.runId,
      input.trials ?? [],
      input.evidenceOf,
      batchRows,
      rows,
    );
    const occurrences = new Map<string, number>();
    let scoreOrdinal = 0;
    for await (const score of input.scores) {
      const key = `${score.task_id}\u0000${score.trial_id}\u0000${score.metric_type}`;
      const occurrence = (occurrences.get(key) ?? 0) + 1;
      occurrences.set(key, occurrence);
      rows.addScore(scoreOrdinal++, score, occurrence);
      if (rows.scoreRowCount >= batchRows) await rows.appendTo(connection);
    }
    await rows.appendTo(connection);
    if (own) await connection.run('COMMIT');
    return { tasks: taskOrdinal, trials: trialCount, scores: scoreOrdinal };
  } catch (error) {
    if (own) await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
