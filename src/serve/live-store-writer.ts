import { listValue, LIST, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import type { ScoreRecord } from '../model/score-record.js';
import type { TaskSpec } from '../model/task.js';
import type { NormalizedToolCall } from '../model/trajectory-view.js';
import type { Trial } from '../model/trial.js';
import { ensureStoreSchema, STORE_TABLES } from '../sinks/duckdb/store-tables.js';
import { openDuckDB, type DuckDBSession } from '../sinks/duckdb/open-duckdb.js';
import { StoreRows } from '../sinks/duckdb/store-rows.js';
import { TableBuffer, type StoreCell } from '../sinks/duckdb/table-buffer.js';

/**
 * One scored trial as plain data (structured-clonable, for a worker thread): the task, the trial,
 * its scores, its tool calls and its `spans` rows already rendered from the trace (`spanRowCells`:
 * all but the first four cells, run id, trial ordinal, task id and trial id, which the writer adds).
 */
export interface StoreTrialMessage {
  /** The trial's task; null when an earlier message of this session carried it (it is sent once). */
  task: TaskSpec | null;
  trial: Trial;
  scores: ScoreRecord[];
  toolCalls: NormalizedToolCall[];
  spanCells: StoreCell[][];
}

/** Tables holding per-trial rows, replaced when a trial is written again. */
const TRIAL_TABLES = ['trials', 'spans', 'tool_calls', 'scores', 'score_outputs'];
/** WAL size that triggers a checkpoint (DuckDB's default is 16 MB). */
const CHECKPOINT_THRESHOLD = '256MB';
const SPANS_TABLE = STORE_TABLES.find((t) => t.name === 'spans')!;

/**
 * Writes batches of scored trials of one live run into a DuckDB store (tables of docs/sql.md), one
 * transaction per batch, so the store holds exactly one version of each trial: a trial written
 * before (in an earlier batch, or an earlier session of the same run id) has its rows in
 * `trials`, `spans`, `tool_calls`, `scores` and `score_outputs` deleted first. A trial keeps its
 * first `trial_ordinal`; scores of each version get new `score_ordinal`s (arrival order).
 *
 * @example
 * const writer = await LiveStoreWriter.open('live.duckdb', 'run-1', {});
 * await writer.writeBatch([message]);
 * writer.close();
 */
export class LiveStoreWriter {
  readonly #stored = new Set<string>();
  readonly #trialOrdinals = new Map<string, number>();
  readonly #taskOrdinals = new Map<string, number>();
  #nextTrial = 0;
  #nextScore = 0;
  #nextTask = 0;
  #runRowWritten = false;

  private constructor(
    private readonly db: DuckDBSession,
    private readonly runId: string,
  ) {}

  /** Opens (or creates) the store and reads where the run's ordinals continue. */
  static async open(path: string, runId: string, options: { threads?: number }): Promise<LiveStoreWriter> {
    const db = await openDuckDB(path, options.threads === undefined ? {} : { threads: options.threads });
    try {
      const writer = new LiveStoreWriter(db, runId);
      await writer.#load(db.connection);
      return writer;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async #load(connection: DuckDBConnection): Promise<void> {
    // Commits are durable in the WAL; checkpointing every 16 MB (the default) would rewrite the
    // tables' last, partly filled row groups again and again under a steady stream of small batches.
    await connection.run(`SET checkpoint_threshold = '${CHECKPOINT_THRESHOLD}'`);
    await ensureStoreSchema(connection);
    const run = this.runId;
    const next = await connection.runAndReadAll(
      `SELECT (SELECT coalesce(max(score_ordinal) + 1, 0) FROM scores WHERE run_id = $run),
              (SELECT coalesce(max(trial_ordinal) + 1, 0) FROM trials WHERE run_id = $run),
              (SELECT coalesce(max(task_ordinal) + 1, 0) FROM tasks WHERE run_id = $run)`,
      { run },
    );
    const [score, trial, task] = (next.getRows()[0] ?? []).map((v) => Number(v));
    this.#nextScore = score ?? 0;
    this.#nextTrial = trial ?? 0;
    this.#nextTask = task ?? 0;
    const tasks = await connection.runAndReadAll(
      'SELECT task_id, min(task_ordinal) FROM tasks WHERE run_id = $run GROUP BY task_id',
      { run },
    );
    for (const [id, ordinal] of tasks.getRows()) this.#taskOrdinals.set(String(id), Number(ordinal));
    const trials = await connection.runAndReadAll(
      'SELECT trial_id FROM trials WHERE run_id = $run UNION SELECT trial_id FROM scores WHERE run_id = $run',
      { run },
    );
    for (const [id] of trials.getRows()) this.#stored.add(String(id));
  }

  /**
   * Writes one batch (the latest version of each trial in it, with their spans) in one transaction.
   * A null entry is a version replaced later in the same batch: it is skipped.
   */
  async writeBatch(batch: readonly (StoreTrialMessage | null)[]): Promise<void> {
    const connection = this.db.connection;
    const run = this.runId;
    const rows = new StoreRows(run);
    const spans = new TableBuffer(SPANS_TABLE);
    if (!this.#runRowWritten) rows.addRun(true, null, new Date().toISOString());
    const replaced: string[] = [];
    const ordinals: [string, number][] = [];
    let nextTask = this.#nextTask;
    let nextTrial = this.#nextTrial;
    let nextScore = this.#nextScore;
    const newTasks = new Map<string, number>();
    for (const message of batch) {
      if (message === null) continue;
      const { task, trial, scores, toolCalls, spanCells } = message;
      if (task !== null && !this.#taskOrdinals.has(task.id) && !newTasks.has(task.id)) {
        newTasks.set(task.id, nextTask);
        rows.addTask(nextTask++, task);
      }
      let ordinal = this.#trialOrdinals.get(trial.id);
      if (ordinal === undefined) {
        ordinal = nextTrial++;
        ordinals.push([trial.id, ordinal]);
      }
      if (this.#stored.has(trial.id)) replaced.push(trial.id);
      rows.addTrial(ordinal, trial);
      rows.addToolCalls(ordinal, trial, toolCalls);
      const taskId = trial.task_id ?? null;
      for (const cells of spanCells) spans.push([run, ordinal, taskId, trial.id, ...cells]);
      for (const score of scores) rows.addScore(nextScore++, score, 1);
    }
    await connection.run('BEGIN TRANSACTION');
    try {
      if (!this.#runRowWritten) await connection.run('DELETE FROM runs WHERE run_id = $run', { run });
      if (replaced.length > 0) {
        for (const table of TRIAL_TABLES) {
          await connection.run(
            `DELETE FROM ${table} WHERE run_id = $run AND trial_id IN (SELECT unnest($ids))`,
            { run, ids: listValue(replaced) },
            { run: VARCHAR, ids: LIST(VARCHAR) },
          );
        }
      }
      await rows.appendTo(connection);
      await spans.appendTo(connection);
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
    this.#runRowWritten = true;
    this.#nextTask = nextTask;
    this.#nextTrial = nextTrial;
    this.#nextScore = nextScore;
    for (const [id, ordinal] of newTasks) this.#taskOrdinals.set(id, ordinal);
    for (const [id, ordinal] of ordinals) this.#trialOrdinals.set(id, ordinal);
    for (const message of batch) if (message !== null) this.#stored.add(message.trial.id);
  }

  /** Closes the database (everything written is committed). */
  close(): void {
    this.db.close();
  }
}
