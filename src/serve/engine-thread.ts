import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../util/start-module-worker.js';
import type { ExportOutcome } from './export-response.js';
import { CapacityWaiters } from './capacity-waiters.js';
import { JsonText } from './json-text.js';
import type { LiveRunEnd, LiveRunOptions } from './open-live-run.js';
import type { BodyHandler, LiveReadApi, OtlpSignal, Saturated, Undecodable } from './serve-types.js';

/** Messages to the engine thread (`engine-worker.ts`). */
export type EngineThreadRequest =
  | {
      t: 'accept';
      id: number;
      body: Uint8Array;
      encoding: 'protobuf' | 'json';
      waitMs: number;
      signal: OtlpSignal;
    }
  | { t: 'summary'; id: number; omitTaskValues: boolean }
  | { t: 'trial'; id: number; trialId: string }
  | { t: 'metrics'; id: number }
  | { t: 'finish'; id: number }
  | { t: 'events'; on: boolean }
  | { t: 'throttled' }
  | { t: 'wait'; timeoutMs: number };

/** The engine's state as the receiving thread mirrors it: sent with every answer. */
interface MirroredState {
  saturated: boolean;
  /** What makes the run's outputs incomplete so far (`LiveEngine.problem`), or null. */
  failure: string | null;
}

type EngineThreadMessage =
  | ({ t: 'reply'; id: number; value?: unknown; error?: string } & MirroredState)
  | ({ t: 'state' } & MirroredState)
  | ({ t: 'room' } & MirroredState)
  | { t: 'event'; event: { type: string; data: unknown } }
  | { t: 'ready'; runId: string }
  | { t: 'failed'; message: string; badInput: boolean };

/** The engine thread could not set the run up (`badInput`: the config is invalid). */
export class EngineThreadStartError extends Error {
  constructor(
    message: string,
    readonly badInput: boolean,
  ) {
    super(message);
    this.name = 'EngineThreadStartError';
  }
}

/**
 * The live run on its own thread, as the receivers see it: a {@link BodyHandler} and a
 * {@link LiveReadApi} whose work happens on the engine thread. Request bodies are moved there
 * undecoded (their memory is transferred, or copied once when it is shared); the engine decodes,
 * assembles, scores and keeps the live state there, and the thread that answers exports only
 * reads bodies and writes answers. Whether the queues are full is mirrored here from every answer
 * (and from a watcher when they were full), so a saturated receiver still refuses before reading
 * a body.
 *
 * @example
 * const engine = await EngineThread.start(options);
 * const server = new OtlpHttpServer(config, engine, engine);
 * // … on SIGTERM: server.stopAccepting();
 * const trials = await engine.finish();
 */
export class EngineThread implements BodyHandler, LiveReadApi {
  readonly #worker: Worker;
  #nextId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #state: MirroredState = { saturated: false, failure: null };
  readonly #listeners = new Set<(event: { type: string; data: unknown }) => void>();
  readonly #waiters = new CapacityWaiters();
  /** Set when the thread died: every later call fails with it. */
  #dead: Error | null = null;

  private constructor(
    worker: Worker,
    readonly runId: string,
  ) {
    this.#worker = worker;
    worker.on('message', (message: EngineThreadMessage) => this.#onMessage(message));
    worker.on('error', (error: Error) => this.#die(error));
    worker.on('exit', (code) => this.#die(new Error(`the engine thread exited (code ${code})`)));
  }

  /** Starts the engine thread and sets the run up there; rejects with its error when it cannot. */
  static start(options: LiveRunOptions): Promise<EngineThread> {
    const worker = startModuleWorker(import.meta.url, 'engine-worker', { workerData: { options } });
    return new Promise((resolve, reject) => {
      const onMessage = (message: EngineThreadMessage): void => {
        if (message.t === 'ready') {
          cleanup();
          resolve(new EngineThread(worker, message.runId));
        } else if (message.t === 'failed') {
          cleanup();
          reject(new EngineThreadStartError(message.message, message.badInput));
        }
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(new Error(`the engine thread exited (code ${code}) while starting`));
      };
      const cleanup = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  saturation(): Saturated | null {
    if (this.#dead !== null) return { saturated: true, retryAfterSec: 1, message: this.#dead.message };
    if (!this.#state.saturated) return null;
    this.#post({ t: 'throttled' });
    return {
      saturated: true,
      retryAfterSec: 1,
      message: 'receiver saturated (scoring queues full); retry later',
    };
  }

  isSaturated(): boolean {
    return this.#dead === null && this.#state.saturated;
  }

  waitForCapacity(timeoutMs: number): Promise<void> {
    if (!this.isSaturated()) return Promise.resolve();
    // the engine lets one waiter in per freed slot; each 'room' admits the oldest one here
    this.#post({ t: 'wait', timeoutMs });
    return this.#waiters.wait(timeoutMs);
  }

  acceptBody(
    body: Buffer,
    encoding: 'protobuf' | 'json',
    waitMs = 0,
    signal: OtlpSignal = 'traces',
  ): Promise<ExportOutcome | Saturated | Undecodable> {
    // moved when the body owns its memory, else copied once (pooled or shared memory cannot move)
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const bytes = owned ? body : new Uint8Array(body);
    return this.#call(
      { t: 'accept', id: 0, body: bytes, encoding, waitMs, signal },
      bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [],
    ) as Promise<ExportOutcome | Saturated | Undecodable>;
  }

  async summaryJson(options: { omitTaskValues?: boolean } = {}): Promise<JsonText> {
    const text = (await this.#call({
      t: 'summary',
      id: 0,
      omitTaskValues: options.omitTaskValues === true,
    })) as string;
    return new JsonText(text);
  }

  trialJson(trialId: string): Promise<unknown> {
    return this.#call({ t: 'trial', id: 0, trialId });
  }

  metricsText(): Promise<string> {
    return this.#call({ t: 'metrics', id: 0 }) as Promise<string>;
  }

  onEvent(listener: (event: { type: string; data: unknown }) => void): () => void {
    this.#listeners.add(listener);
    if (this.#listeners.size === 1) this.#post({ t: 'events', on: true });
    return () => {
      if (this.#listeners.delete(listener) && this.#listeners.size === 0)
        this.#post({ t: 'events', on: false });
    };
  }

  healthy(): boolean {
    return this.problem() === null;
  }

  problem(): string | null {
    return this.#dead?.message ?? this.#state.failure;
  }

  /**
   * Ends the run on the engine thread (scores what is left, flushes open trials, closes the store,
   * writes the bundle) and waits for the thread to end; resolves as `LiveRun.finish`.
   */
  async finish(): Promise<LiveRunEnd> {
    this.#waiters.releaseAll();
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    const end = (await this.#call({ t: 'finish', id: 0 })) as LiveRunEnd;
    await exited;
    return end;
  }

  #call(request: EngineThreadRequest & { id: number }, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#dead !== null) return Promise.reject(this.#dead);
    const id = this.#nextId++;
    request.id = id;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage(request, transfer);
    });
  }

  #post(request: EngineThreadRequest): void {
    if (this.#dead === null) this.#worker.postMessage(request);
  }

  #onMessage(message: EngineThreadMessage): void {
    switch (message.t) {
      case 'reply': {
        this.#state = { saturated: message.saturated, failure: message.failure };
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return;
        this.#pending.delete(message.id);
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.value);
        return;
      }
      case 'state':
        this.#state = { saturated: message.saturated, failure: message.failure };
        return;
      case 'room': {
        this.#state = { saturated: message.saturated, failure: message.failure };
        this.#waiters.admitOldest();
        return;
      }
      case 'event':
        for (const listener of this.#listeners) listener(message.event);
        return;
      default:
    }
  }

  #die(error: Error): void {
    if (this.#dead !== null) return;
    this.#dead = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
