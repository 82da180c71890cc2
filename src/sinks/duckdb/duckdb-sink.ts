import { listValue, VARCHAR, LIST, type DuckDBConnection } from '@duckdb/node-api';
import type { JsonObject } from '../../model/json-value.js';
import type { ScoredTrial } from '../../model/scored-trial.js';
import type { Sink } from '../sink.js';
import type { DuckDBOpenOptions } from './duckdb-open-options.js';
import { ensureStoreSchema } from './store-tables.js';
import { openDuckDB, type DuckDBSession } from './open-duckdb.js';
import type { StoreRunInput } from './store-run-input.js';
import { StoreRows } from './store-rows.js';
import { traceEvidenceOf } from './trace-evidence-of.js';
import { writeRun } from './write-run.js';

/** Options of `toDuckDB` (DuckDB settings plus how the sink writes). */
export interface DuckDBSinkOptions extends Omit<DuckDBOpenOptions, 'readOnly'> {
  /** Run id for every item; default: the `run_id` of each item's scores. */
  runId?: string | undefined;
  /** Run metadata for the `runs` row. */
  metadata?: JsonObject | null | undefined;
  /** Rows buffered before a chunked append (a batch boundary). Default 50 000. */
  batchRows?: number | undefined;
  /**
   * When rows become durable: `'shutdown'` (default) commits one transaction at `shutdown()`, so a
   * crash leaves the file exactly as before this session; `'batch'` commits at every batch boundary
   * (for long-lived writers such as `serve`), so a crash keeps the batches committed so far.
   */
  commit?: 'shutdown' | 'batch' | undefined;
  /** Fill `tool_calls`/`spans` from each item's primary trace. Default true. */
  traces?: boolean | undefined;
  /** Clock for `runs.written_at`. */
  now?: (() => Date) | undefined;
  /** Called at `shutdown()` after the commit, before the database closes (e.g. to export it). */
  onCommitted?: ((connection: DuckDBConnection) => Promise<void>) | undefined;
}

/** Per-run state of one sink session. */
interface RunSession {
  readonly runId: string;
  /** The run had rows before this session: rows it writes again are replaced. */
  readonly existed: boolean;
  readonly scoreStart: number;
  readonly trialStart: number;
  nextScore: number;
  nextTrial: number;
  nextTask: number;
  readonly taskOrdinals: Map<string, number>;
  readonly tasksWritten: Set<string>;
  readonly occurrences: Map<string, number>;
  readonly rows: StoreRows;
  runRowWritten: boolean;
  replaceTasks: string[];
  replaceTrials: Set<string>;
  replaceScores: Map<string, [string, string]>;
}

/**
 * The DuckDB sink: `Sink<ScoredTrial>` writing the store tables (see `STORE_TABLES`) through the
 * appender in chunks, at batch boundaries only. Writing a run again replaces the rows it had for the
 * same (run id, trial id, metric type) — and the same task and trial ids — instead of duplicating them;
 * duplicates inside one session (repeated trial ids) are all kept. Also writes whole runs
 * (`writeRun`, e.g. a loaded bundle). Operations are serialised; `shutdown` commits and closes and
 * is safe to call twice or without any write (then the file is not even opened).
 *
 * @example
 * const sink = toDuckDB('runs.duckdb');
 * for (const item of scoredTrials) await sink.write(item);
 * await sink.shutdown();
 */
export class DuckDBSink implements Sink<ScoredTrial> {
  readonly #path: string;
  readonly #options: DuckDBSinkOptions;
  readonly #sessions = new Map<string, RunSession>();
  #db: DuckDBSession | null = null;
  #inTransaction = false;
  #closed = false;
  #failure: unknown = null;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(path: string, options: DuckDBSinkOptions = {}) {
    this.#path = path;
    this.#options = options;
  }

  /** Buffers one scored trial (its task, trial, scores, outputs, tool calls and spans). */
  write(item: ScoredTrial): Promise<void> {
    return this.#enqueue(() => this.#write(item));
  }

  /** Appends everything buffered (and commits it when `commit` is `'batch'`). */
  flush(): Promise<void> {
    return this.#enqueue(async () => {
      for (const s of this.#sessions.values()) await this.#flushBatch(s);
    });
  }

  /**
   * Writes a whole run (tasks, trials, scores, metadata), replacing every row the run had. Inside
   * the session transaction when one is open, else in its own.
   */
  writeRun(input: StoreRunInput): Promise<void> {
    return this.#enqueue(async () => {
      for (const s of this.#sessions.values()) await this.#flushBatch(s);
      this.#sessions.delete(input.runId);
      const connection = await this.#connection();
      const opts = {
        ownTransaction: !this.#inTransaction,
        ...(this.#options.batchRows !== undefined ? { batchRows: this.#options.batchRows } : {}),
        ...(this.#options.now !== undefined ? { now: this.#options.now } : {}),
      };
      await writeRun(
        connection,
        { ...input, metadata: input.metadata ?? this.#options.metadata ?? null },
        opts,
      );
    });
  }

  /**
   * Whether the store held rows of `runId` before this session wrote any (then the run's rows are a
   * mix of this session's and earlier ones); false for a run this session has not written.
   */
  runHadRows(runId: string): boolean {
    return this.#sessions.get(runId)?.existed ?? false;
  }

  /** Appends what is left, commits, closes the database. Safe to call twice. */
  shutdown(): Promise<void> {
    return this.#enqueue(async () => {
      if (this.#closed) return;
      try {
        if (this.#failure === null) {
          for (const s of this.#sessions.values()) await this.#flushBatch(s);
          if (this.#inTransaction) {
            await this.#db?.connection.run('COMMIT');
            this.#inTransaction = false;
          }
          if (this.#options.onCommitted !== undefined)
            await this.#options.onCommitted(await this.#connection());
        }
      } finally {
        this.#closed = true;
        this.#db?.close();
        this.#db = null;
      }
    }, 'skip');
  }

  #enqueue(task: () => Promise<void>, whenClosed: 'throw' | 'skip' = 'throw'): Promise<void> {
    const next = this.#tail.then(async () => {
      if (this.#closed && whenClosed === 'skip') return;
      if (this.#failure !== null && whenClosed !== 'skip') throw this.#failure;
      if (this.#closed) throw new Error(`toDuckDB(${this.#path}): sink is shut down`);
      try {
        await task();
      } catch (error) {
        this.#failure = error;
        if (this.#inTransaction) {
          this.#inTransaction = false;
          await this.#db?.connection.run('ROLLBACK').catch(() => undefined);
        }
        throw error;
      }
    });
    this.#tail = next.catch(() => undefined);
    return next;
  }

  async #connection(): Promise<DuckDBConnection> {
    if (this.#db === null) {
      const {
        runId: _r,
        metadata: _m,
        batchRows: _b,
        commit: _c,
        traces: _t,
        now: _n,
        ...open
      } = this.#options;
      this.#db = await openDuckDB(this.#path, open);
      await ensureStoreSchema(this.#db.connection);
    }
    return this.#db.connection;
  }

  async #write(item: ScoredTrial): Promise<void> {
    const runId = this.#options.runId ?? item.scores[0]?.run_id;
    if (runId === undefined) {
      throw new Error(
        `toDuckDB(${this.#path}): trial '${item.item.trial.id}' has no scores to take a run id from; pass options.runId`,
      );
    }
    const s = this.#sessions.get(runId) ?? (await this.#openSession(runId));
    const rows = s.rows;
    const task = item.task;
    if (!s.tasksWritten.has(task.id)) {
      s.tasksWritten.add(task.id);
      let ordinal = s.taskOrdinals.get(task.id);
      if (ordinal === undefined) {
        ordinal = s.nextTask++;
        s.taskOrdinals.set(task.id, ordinal);
      } else {
        s.replaceTasks.push(task.id);
      }
      rows.addTask(ordinal, task);
    }
    const trial = item.item.trial;
    const trialOrdinal = s.nextTrial++;
    rows.addTrial(trialOrdinal, trial);
    if (s.existed) s.replaceTrials.add(trial.id);
    if (this.#options.traces !== false) {
      const trace = await traceEvidenceOf(item.item.evidence);
      if (trace !== null) {
        rows.addToolCalls(trialOrdinal, trial, trace.toolCalls);
        rows.addSpans(trialOrdinal, trial, trace.spans);
      }
    }
    for (const score of item.scores) {
      const key = `${score.task_id}\u0000${score.trial_id}\u0000${score.metric_type}`;
      const occurrence = (s.occurrences.get(key) ?? 0) + 1;
      s.occurrences.set(key, occurrence);
      rows.addScore(s.nextScore++, score, occurrence);
      if (s.existed)
        s.replaceScores.set(`${score.trial_id}\u0000${score.metric_type}`, [
          score.trial_id,
          score.metric_type,
        ]);
    }
    if (rows.rowCount >= (this.#options.batchRows ?? 50_000)) await this.#flushBatch(s);
  }

  async #openSession(runId: string): Promise<RunSession> {
    const connection = await this.#connection();
    const reader = await connection.runAndReadAll(
      `SELECT (SELECT count(*) FROM runs WHERE run_id = $run) + (SELECT count(*) FROM trials WHERE run_id = $run)
              + (SELECT count(*) FROM scores WHERE run_id = $run) + (SELECT count(*) FROM tasks WHERE run_id = $run),
              (SELECT coalesce(max(score_ordinal) + 1, 0) FROM scores WHERE run_id = $run),
              (SELECT coalesce(max(trial_ordinal) + 1, 0) FROM trials WHERE run_id = $run),
              (SELECT coalesce(max(task_ordinal) + 1, 0) FROM tasks WHERE run_id = $run)`,
      { run: runId },
    );
    const [existing, scoreStart, trialStart, taskStart] = (reader.getRows()[0] ?? []).map((v) => Number(v));
    const taskOrdinals = new Map<string, number>();
    const tasks = await connection.runAndReadAll(
      'SELECT task_id, min(task_ordinal) FROM tasks WHERE run_id = $run GROUP BY task_id',
      { run: runId },
    );
    for (const [id, ordinal] of tasks.getRows()) taskOrdinals.set(id as string, Number(ordinal));
    const session: RunSession = {
      runId,
      existed: (existing ?? 0) > 0,
      scoreStart: scoreStart ?? 0,
      trialStart: trialStart ?? 0,
      nextScore: scoreStart ?? 0,
      nextTrial: trialStart ?? 0,
      nextTask: taskStart ?? 0,
      taskOrdinals,
      tasksWritten: new Set(),
      occurrences: new Map(),
      rows: new StoreRows(runId),
      runRowWritten: false,
      replaceTasks: [],
      replaceTrials: new Set(),
      replaceScores: new Map(),
    };
    this.#sessions.set(runId, session);
    return session;
  }

  /** A batch boundary: replace what this batch writes again, append the buffered rows, maybe commit. */
  async #flushBatch(s: RunSession): Promise<void> {
    if (s.rows.rowCount === 0 && s.runRowWritten) return;
    const connection = await this.#connection();
    if (!this.#inTransaction) {
      await connection.run('BEGIN TRANSACTION');
      this.#inTransaction = true;
    }
    const run = s.runId;
    if (!s.runRowWritten) {
      await connection.run('DELETE FROM runs WHERE run_id = $run', { run });
      s.rows.addRun(
        true,
        this.#options.metadata ?? null,
        (this.#options.now?.() ?? new Date()).toISOString(),
      );
      s.runRowWritten = true;
    }
    const strings = (values: string[]) => listValue(values);
    const types = { run: VARCHAR, ids: LIST(VARCHAR), trials: LIST(VARCHAR), metrics: LIST(VARCHAR) };
    if (s.replaceTasks.length > 0) {
      for (const t of ['tasks', 'task_metrics', 'task_outputs', 'task_views', 'task_view_signals']) {
        await connection.run(
          `DELETE FROM ${t} WHERE run_id = $run AND task_id IN (SELECT unnest($ids))`,
          { run, ids: strings(s.replaceTasks) },
          { run: types.run, ids: types.ids },
        );
      }
      s.replaceTasks = [];
    }
    if (s.replaceTrials.size > 0) {
      for (const t of ['trials', 'spans', 'tool_calls']) {
        await connection.run(
          `DELETE FROM ${t} WHERE run_id = $run AND trial_ordinal < ${s.trialStart} AND trial_id IN (SELECT unnest($ids))`,
          { run, ids: strings([...s.replaceTrials]) },
          { run: types.run, ids: types.ids },
        );
      }
      s.replaceTrials = new Set();
    }
    if (s.replaceScores.size > 0) {
      const pairs = [...s.replaceScores.values()];
      for (const t of ['scores', 'score_outputs']) {
        await connection.run(
          `DELETE FROM ${t} WHERE run_id = $run AND score_ordinal < ${s.scoreStart}
             AND (trial_id, metric_type) IN (SELECT unnest($trials), unnest($metrics))`,
          { run, trials: strings(pairs.map((p) => p[0])), metrics: strings(pairs.map((p) => p[1])) },
          { run: types.run, trials: types.trials, metrics: types.metrics },
        );
      }
      s.replaceScores = new Map();
    }
    await s.rows.appendTo(connection);
    if (this.#options.commit === 'batch') {
      await connection.run('COMMIT');
      this.#inTransaction = false;
    }
  }
}
