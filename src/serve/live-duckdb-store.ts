import { startModuleWorker } from '../util/start-module-worker.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { NormalizedToolCall } from '../model/trajectory-view.js';
import type { Sink } from '../sinks/sink.js';
import { spanRowCells } from '../sinks/duckdb/span-row-cells.js';
import { traceEvidenceOf, type TraceEvidence } from '../sinks/duckdb/trace-evidence-of.js';
import type { StoreTrialMessage } from './live-store-writer.js';

/** Options of {@link LiveDuckDBStore}. */
export interface LiveDuckDBStoreOptions {
  runId: string;
  /** Most time (ms) between a trial being scored and its batch being handed to the writer. */
  flushMs: number;
  /** Spans of scored trials buffered or being written past which `write` waits (backpressure). */
  maxBufferedSpans: number;
  /** DuckDB `threads` (default DuckDB's). */
  threads?: number | undefined;
}

/** Where batches go: a writer in a worker thread, so appends and commits never block receiving. */
interface Backend {
  write(batch: (StoreTrialMessage | null)[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The DuckDB store of `evalstream serve` (the tables of `toDuckDB`, docs/sql.md) for a stream in which
 * a trial can be scored several times. `write` only remembers the latest version of each trial (by
 * trial id); at most every `flushMs` the buffered trials go to a `LiveStoreWriter` (in a worker
 * thread) as one batch = one transaction, which replaces the rows of trials written
 * before. So, once committed, the store holds exactly one version of each trial: its trial row, one
 * score row per metric, its tool calls and one `spans` row per distinct span. `write` waits only when
 * more than `maxBufferedSpans` spans are buffered or being written (backpressure); a failed batch
 * fails every later call. `shutdown` writes what is left and closes the file.
 *
 * @example
 * const store = new LiveDuckDBStore('live.duckdb', { runId, flushMs: 250, maxBufferedSpans: 200_000 });
 * await store.write(scoredTrial); // buffered; committed within about 250 ms
 * await store.shutdown();
 */
export class LiveDuckDBStore implements Sink<ScoredTrial> {
  readonly #path: string;
  readonly #options: LiveDuckDBStoreOptions;
  #pending = new PendingBatch();
  /** Task ids whose spec went to the writer already (each spec is sent once). */
  readonly #tasksSent = new Set<string>();
  #pendingSpans = 0;
  #inFlightSpans = 0;
  #inFlight = new Set<Promise<void>>();
  #backend: Promise<Backend> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #failure: Error | null = null;
  #closed = false;

  constructor(path: string, options: LiveDuckDBStoreOptions) {
    this.#path = path;
    this.#options = options;
  }

  /** Spans of scored trials not yet committed (buffered or being written). */
  get bufferedSpans(): number {
    return this.#pendingSpans + this.#inFlightSpans;
  }

  /** Opens the store now (starts the writer, creates the tables) instead of at the first batch. */
  async open(): Promise<void> {
    await (this.#backend ??= this.#openBackend());
  }

  /**
   * Remembers the latest version of a trial, written by the next batch. Its rows are rendered now
   * (its spans as row cells), so the trial's evidence is not kept until the batch.
   */
  async write(item: ScoredTrial): Promise<void> {
    if (this.#failure !== null) throw this.#failure;
    if (this.#closed) throw new Error(`live store ${this.#path} is shut down`);
    const trace = await traceEvidenceOf(item.item.evidence);
    if (this.#failure !== null) throw this.#failure;
    const spans = spanCountOf(item);
    this.#pendingSpans += spans - this.#pending.add(item, trace, spans);
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.#send().catch(() => undefined);
    }, this.#options.flushMs);
    while (this.bufferedSpans > this.#options.maxBufferedSpans) {
      if (this.#pending.size > 0) await this.#send();
      else await Promise.race(this.#inFlight);
      if (this.#failure !== null) throw this.#failure;
    }
  }

  /** Writes and commits everything buffered; resolves when every batch so far is committed. */
  async flush(): Promise<void> {
    if (this.#pending.size > 0) void this.#send().catch(() => undefined);
    await Promise.all(this.#inFlight);
    if (this.#failure !== null) throw this.#failure;
  }

  /** Commits what is buffered and closes the file. Safe to call twice. */
  async shutdown(): Promise<void> {
    if (this.#closed) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    try {
      if (this.#failure === null) await this.flush();
    } finally {
      this.#closed = true;
      if (this.#backend !== null) await (await this.#backend).close();
    }
  }

  /** Hands the buffered trials to the writer as one batch; resolves when it is committed. */
  async #send(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending;
    const spans = this.#pendingSpans;
    this.#pending = new PendingBatch();
    this.#pendingSpans = 0;
    this.#inFlightSpans += spans;
    const done = (async () => {
      try {
        const backend = await (this.#backend ??= this.#openBackend());
        // each task spec goes to the writer once
        for (const message of batch.messages) {
          if (message === null || message.task === null) continue;
          if (this.#tasksSent.has(message.task.id)) message.task = null;
          else this.#tasksSent.add(message.task.id);
        }
        await backend.write(batch.messages);
      } catch (error) {
        this.#failure ??= error instanceof Error ? error : new Error(String(error));
        throw this.#failure;
      } finally {
        this.#inFlightSpans -= spans;
      }
    })();
    this.#inFlight.add(done);
    try {
      await done;
    } finally {
      this.#inFlight.delete(done);
    }
  }

  #openBackend(): Promise<Backend> {
    const threads = this.#options.threads === undefined ? {} : { threads: this.#options.threads };
    return openWorkerBackend({ type: 'open', path: this.#path, runId: this.#options.runId, ...threads });
  }
}

type Reply =
  | { type: 'opened' }
  | { type: 'closed' }
  | { type: 'done'; seq: number }
  | { type: 'error'; seq: number; message: string };

async function openWorkerBackend(open: {
  type: 'open';
  path: string;
  runId: string;
  threads?: number;
}): Promise<Backend> {
  const worker = startModuleWorker(import.meta.url, 'live-store-worker');
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let seq = 0;
  let fatal: Error | null = null;
  const failAll = (error: Error): void => {
    fatal ??= error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  worker.on('message', (reply: Reply) => {
    const key = reply.type === 'done' || reply.type === 'error' ? reply.seq : -1;
    const w = waiting.get(key);
    if (w === undefined) return;
    waiting.delete(key);
    if (reply.type === 'error') w.reject(new Error(`live store: ${reply.message}`));
    else w.resolve();
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`live store worker exited (code ${code})`)));
  const call = (message: object, key: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (fatal !== null) return reject(fatal);
      waiting.set(key, { resolve, reject });
      worker.postMessage(message);
    });
  await call(open, -1);
  return {
    write: (trials) => {
      const n = seq++;
      return call({ type: 'batch', seq: n, trials }, n);
    },
    close: async () => {
      if (fatal === null) await call({ type: 'close' }, -1).catch(() => undefined);
      await worker.terminate();
    },
  };
}

function spanCountOf(item: ScoredTrial): number {
  const count = item.item.trial.metadata?.['otlp_span_count'];
  return typeof count === 'number' ? count : 1;
}

/**
 * The trials of one batch, rendered as they arrive: one message per trial version; a trial written
 * again replaces its earlier version with null.
 */
class PendingBatch {
  readonly messages: (StoreTrialMessage | null)[] = [];
  readonly #index = new Map<string, { at: number; spans: number }>();

  /** Live trials in the batch. */
  get size(): number {
    return this.#index.size;
  }

  /** Adds a trial version; returns the span count of the version it replaces (0 if none). */
  add(scored: ScoredTrial, trace: TraceEvidence | null, spanCount: number): number {
    const id = scored.item.trial.id;
    const previous = this.#index.get(id);
    if (previous !== undefined) this.messages[previous.at] = null;
    const at = this.messages.length;
    this.messages.push({
      task: scored.task,
      trial: scored.item.trial,
      scores: scored.scores,
      toolCalls: trace === null ? [] : trace.toolCalls.map(plainToolCall),
      spanCells: trace === null ? [] : trace.spans.map(spanRowCells),
    });
    this.#index.set(id, { at, spans: spanCount });
    return previous?.spans ?? 0;
  }
}

function plainToolCall(c: NormalizedToolCall): NormalizedToolCall {
  return {
    id: c.id,
    name: c.name,
    arguments: c.arguments,
    result: c.result,
    isError: c.isError,
    origin: { ...c.origin },
  };
}
