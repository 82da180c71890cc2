import type { Worker } from 'node:worker_threads';
import { ConfigError } from '../config/config-error.js';
import { startModuleWorker } from '../util/start-module-worker.js';
import type { ExportOutcome } from './export-response.js';
import { JsonText } from './json-text.js';
import type { LiveRunReply, LiveRunRequest } from './live-run-messages.js';
import type { LiveEvent } from './live-state.js';
import type { LiveRunEnd, LiveRunOptions } from './open-live-run.js';
import type { BodyHandler, LiveReadApi, OtlpSignal, Saturated, Undecodable } from './serve-types.js';

/**
 * A live run (`openLiveRun`) on a worker thread of its own, as the receivers on this thread see it:
 * the {@link BodyHandler} they hand request bodies to (moved to the worker, which decodes, groups,
 * scores and keeps the summary; the answer comes back from there) and the {@link LiveReadApi} they
 * serve. Whether the queues are full is known here without asking (the worker says when it
 * changes), so a saturated receiver still refuses exports before reading them.
 *
 * @example
 * const run = await LiveRunThread.open(options, warn, warn);
 * const server = new OtlpHttpServer(config, run, run);
 * // … on SIGTERM, after the receivers stopped accepting:
 * const { trials, problem } = await run.finish();
 */
export class LiveRunThread implements BodyHandler, LiveReadApi {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>();
  readonly #listeners = new Set<(event: LiveEvent) => void>();
  #nextId = 0;
  #saturated: Saturated | null = null;
  #stopped: Error | null = null;
  /** The run's problem as `finish` found it (undefined before). */
  #endProblem: string | null | undefined = undefined;

  private constructor(
    worker: Worker,
    readonly runId: string,
  ) {
    this.#worker = worker;
  }

  /**
   * Starts the worker and opens the run there; rejects as `openLiveRun` would (a `ConfigError` for
   * a bad config). `onWarning` and `onProblem` are told on this thread.
   */
  static open(
    options: LiveRunOptions,
    onWarning: (message: string) => void,
    onProblem: (message: string) => void = onWarning,
  ): Promise<LiveRunThread> {
    const worker = startModuleWorker(import.meta.url, 'live-run-worker');
    return new Promise((resolve, reject) => {
      let thread: LiveRunThread | null = null;
      worker.on('message', (reply: LiveRunReply) => {
        if (reply.type === 'opened') resolve((thread = new LiveRunThread(worker, reply.runId)));
        else if (reply.type === 'open-failed') {
          void worker.terminate();
          reject(
            reply.config === null
              ? new Error(reply.message)
              : new ConfigError(reply.config.file, reply.config.problems),
          );
        } else if (reply.type === 'warning') onWarning(reply.message);
        else if (reply.type === 'problem') onProblem(reply.message);
        else if (thread !== null) thread.#receive(reply);
      });
      const stop = (error: Error): void => {
        if (thread === null) reject(error);
        else thread.#stop(error);
      };
      worker.on('error', stop);
      worker.on('exit', (code) => stop(new Error(`the live run's thread exited (code ${code})`)));
      worker.postMessage({ type: 'open', options } satisfies LiveRunRequest);
    });
  }

  saturation(): Saturated | null {
    if (this.#saturated !== null) this.#post({ type: 'throttled' });
    return this.#saturated;
  }

  isSaturated(): boolean {
    return this.#saturated !== null;
  }

  async waitForCapacity(timeoutMs: number): Promise<void> {
    await this.#call({ type: 'wait', id: 0, timeoutMs });
  }

  /** Moves `body`'s bytes to the worker when it owns them whole (else copies them) and awaits the answer. */
  acceptBody(
    body: Buffer,
    encoding: 'protobuf' | 'json',
    signal: OtlpSignal = 'traces',
  ): Promise<ExportOutcome | Saturated | Undecodable> {
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const bytes = owned ? new Uint8Array(body.buffer, 0, body.byteLength) : new Uint8Array(body);
    return this.#call({ type: 'body', id: 0, body: bytes, encoding, signal }, [
      bytes.buffer as ArrayBuffer,
    ]) as Promise<ExportOutcome | Saturated | Undecodable>;
  }

  async summaryJson(options: { omitTaskValues?: boolean } = {}): Promise<JsonText> {
    const what = options.omitTaskValues === true ? 'summary-light' : 'summary';
    return new JsonText((await this.#call({ type: 'read', id: 0, what })) as string);
  }

  trialJson(trialId: string): Promise<unknown> {
    return this.#call({ type: 'read', id: 0, what: 'trial', trialId });
  }

  metricsText(): Promise<string> {
    return this.#call({ type: 'read', id: 0, what: 'metrics' }) as Promise<string>;
  }

  onEvent(listener: (event: LiveEvent) => void): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) this.#post({ type: 'events', on: true });
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0)
        this.#post({ type: 'events', on: false });
    };
  }

  async healthy(): Promise<boolean> {
    return (await this.problem()) === null;
  }

  async problem(): Promise<string | null> {
    if (this.#endProblem !== undefined) return this.#endProblem;
    if (this.#stopped !== null) return this.#stopped.message;
    return (await this.#call({ type: 'read', id: 0, what: 'problem' })) as string | null;
  }

  /**
   * Ends the run on its thread (see `LiveRun.finish`: open trials scored as incomplete, the store
   * closed, the bundle written), then stops the thread. Call after the receivers stopped accepting.
   */
  async finish(): Promise<LiveRunEnd> {
    try {
      const end = (await this.#call({ type: 'finish', id: 0 })) as LiveRunEnd;
      this.#endProblem = end.problem;
      return end;
    } finally {
      this.#stopped ??= new Error('the live run has finished');
      await this.#worker.terminate();
    }
  }

  #receive(reply: LiveRunReply): void {
    if (reply.type === 'capacity') this.#saturated = reply.saturated;
    else if (reply.type === 'event') for (const listener of this.#listeners) listener(reply.event);
    else if (reply.type === 'answer' || reply.type === 'failed') {
      const waiter = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (reply.type === 'answer') waiter?.resolve(reply.value);
      else waiter?.reject(new Error(reply.message));
    }
  }

  /** Posts `request` with a fresh id; resolves with its answer. */
  #call(request: LiveRunRequest & { id: number }, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#stopped !== null) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id }, transfer);
    });
  }

  #post(request: LiveRunRequest): void {
    if (this.#stopped === null) this.#worker.postMessage(request);
  }

  /** The thread stopped (an error it did not catch, or it exited): every open call fails with why. */
  #stop(error: Error): void {
    this.#stopped ??= error;
    for (const waiter of this.#waiting.values()) waiter.reject(this.#stopped);
    this.#waiting.clear();
  }
}
