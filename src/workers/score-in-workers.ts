import type { Worker } from 'node:worker_threads';
import type { Observable } from 'rxjs';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import type { Trial } from '../model/trial.js';
import { PullSource } from '../pipeline/pull-source.js';
import type { TrialPlan } from '../pipeline/trial-plan.js';
import type { CompactTrajectory } from '../report/report-data.js';
import type { InputFormat } from '../sources/detect-format.js';
import { planInputs } from '../sources/plan-inputs.js';
import { startModuleWorker } from '../util/start-module-worker.js';
import { errorFromWire } from './error-from-wire.js';
import { rememberFloatPaths } from './remember-float-paths.js';
import { workChunks } from './work-chunks.js';
import type { WorkChunk } from './work-chunk.js';
import { OtlpTrialGrouper } from '../evidence/otlp/otlp-trial-grouper.js';
import type {
  FromWorkerMessage,
  OtlpChunkCheck,
  ScoreWorkerData,
  ScoredWire,
  TaskPlanWire,
  ToWorkerMessage,
} from './worker-messages.js';

/** Options of {@link scoreInWorkers}. */
export interface ScoreInWorkersOptions extends ScoreWorkerData {
  /** The run's inputs and their format, read as `openInputs` reads them (`planInputs`). */
  inputs: readonly string[];
  format: 'auto' | InputFormat;
  /** Worker threads (>= 1). */
  workers: number;
  /** OTLP payload bytes per chunk (default 4 MiB; a chunk has at least `windowRequests` payloads). */
  otlpChunkBytes?: number;
  /** The run's trial planner (`createTrialPlanner`): called on this thread, once per trial, in order. */
  plan: (item: TrialItem) => TrialPlan;
  /** Payloads a worker skipped as bad. */
  onWarning?: (message: string) => void;
  /** Ends the run with its error, whatever the workers are doing. */
  interrupt?: Observable<never>;
  /** Receives the report trajectory a worker read for a trial it may keep. */
  onTrajectory?: (trial: Trial, trajectory: CompactTrajectory | string | null) => void;
}

/** Chunks read or scored at once per worker: one being scored while the next is read. */
const CHUNKS_PER_WORKER = 2;

interface Slot {
  id: number;
  chunk: WorkChunk;
  worker: number;
  read: Extract<FromWorkerMessage, { type: 'read' }> | null;
  planned: { item: TrialItem; task: TaskSpec }[] | null;
  scored: ScoredWire[] | null;
  /** `otlp-frames`: its split trials were renumbered after the earlier chunks'. */
  renamed: boolean;
}

/** Spans one pass holds at most before it closes traces early (the grouper's default). */
const MAX_OPEN_SPANS = OtlpTrialGrouper.defaultMaxOpenSpans;
const WINDOW = OtlpTrialGrouper.defaultWindowRequests;

/**
 * Whether one pass would group the trials of two consecutive `otlp-frames` chunks as their workers
 * did: no trace is touched within `windowRequests` requests on both sides of the boundary (so no
 * trace, and no trial still open, spans it), the second chunk has at least that many requests (the
 * trials open at the end of the first come out before it ends), and the two never held together more
 * spans than one pass holds before closing traces early.
 */
function groupedAsOnePass(before: OtlpChunkCheck, after: OtlpChunkCheck): boolean {
  if (after.requests < WINDOW || before.peakSpans + after.peakSpans > MAX_OPEN_SPANS) return false;
  const tail = new Set(before.tail);
  return !after.head.some((id) => tail.has(id));
}

/** One `otlp-frames` chunk of two consecutive ones. */
function joinFrames(
  a: Extract<WorkChunk, { kind: 'otlp-frames' }>,
  b: Extract<WorkChunk, { kind: 'otlp-frames' }>,
): WorkChunk {
  const bytes = new Uint8Array(a.bytes.byteLength + b.bytes.byteLength);
  bytes.set(new Uint8Array(a.bytes), 0);
  bytes.set(new Uint8Array(b.bytes), a.bytes.byteLength);
  const shift = a.bytes.byteLength;
  const moved = b.payloads.map((p) =>
    p.kind === 'json' ? p : { ...p, start: p.start + shift, end: p.end + shift },
  );
  return {
    kind: 'otlp-frames',
    payloads: [...a.payloads, ...moved],
    bytes: bytes.buffer,
    flush: b.flush,
    error: b.error,
  };
}

/**
 * Scores the trials of `inputs` on worker threads and emits them as one pass would: the same scored
 * trials in the same order, read on demand. This thread cuts the inputs into chunks (`workChunks`),
 * hands each to a worker, which reads and decodes it, sends back the trial records, and scores them
 * once this thread has planned their tasks in reading order (the metrics, task spec and row index of
 * a task are fixed at its first trial in the run, as in one pass); the scores come back as plain
 * records. At most `CHUNKS_PER_WORKER` chunks per worker are in flight, and a finished chunk waits
 * until every earlier one was taken. A problem in a chunk's input ends the run after the trials read
 * before it, as in one pass; a worker that fails (an uncaught error, an exit) ends it with an error
 * naming the worker. Workers are stopped when the stream ends, errors or is left.
 *
 * Emitted trials carry no evidence handles (they stay in the worker): sinks get the trial records,
 * scores and tasks.
 *
 * @example
 * const scored = scoreInWorkers({ inputs: ['runs/'], format: 'auto', workers: 2, plan, configFile, concurrency: null, runId, report: false });
 * for await (const s of scored) console.log(s.item.trial.id, s.scores.length);
 */
export function scoreInWorkers(options: ScoreInWorkersOptions): PullSource<ScoredTrial> {
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new RangeError(`workers must be an integer >= 1, got ${options.workers}`);
  }
  return new PullSource(() => scoreChunks(options));
}

async function* scoreChunks(options: ScoreInWorkersOptions): AsyncGenerator<ScoredTrial> {
  // the workers load their modules and config while the inputs are listed
  const pool = new WorkerPool(options);
  const inputs = await planInputs(options.inputs, options.format).catch(async (error: unknown) => {
    await pool.stop();
    throw error;
  });
  const chunks = workChunks(inputs, options.otlpChunkBytes)[Symbol.asyncIterator]();
  const slots: Slot[] = [];
  const byId = new Map<number, Slot>();
  let nextId = 0;
  let chunksDone = false;
  /** Index in `slots` of the first slot not planned yet. */
  let unplanned = 0;
  /** ATIF trial ids taken so far, over the chunks planned. */
  const idCounts = new Map<string, number>();
  /** Each task's first trial, and the tasks each worker was told about. */
  const firsts = new Map<string, { trial: Trial; task: TaskSpec | null }>();
  const told = Array.from({ length: options.workers }, () => new Set<string>());

  const dispatch = (slot: Slot): void => {
    byId.set(slot.id, slot);
    pool.send(slot.worker, { type: 'chunk', id: slot.id, chunk: slot.chunk });
  };
  pool.onMessage = (message) => {
    const slot = byId.get(message.id);
    if (slot === undefined) return;
    if (message.type === 'read') {
      slot.read = message;
      // the chunk's bytes come back from the worker, kept in case the chunk is joined with the next
      if (message.bytes !== null && slot.chunk.kind === 'otlp-frames')
        slot.chunk = { ...slot.chunk, bytes: message.bytes };
    } else if (message.type === 'scored') slot.scored = message.results;
    else throw errorFromWire(message.error);
  };

  /** Trial keys of the OTLP trials emitted so far, with their last part. */
  const emittedParts = new Map<string, number>();

  /**
   * An `otlp-frames` slot grouped as one pass would group it: true once it is, after renumbering its
   * split trials; false while it waits for the next chunk's check or is being read again (joined with
   * the next chunk when a trace crosses their boundary).
   */
  const settleOtlp = (slot: Slot, check: OtlpChunkCheck): boolean => {
    const chunk = slot.chunk as Extract<WorkChunk, { kind: 'otlp-frames' }>;
    if (!chunk.flush) {
      const at = slots.indexOf(slot);
      const next = slots[at + 1];
      const after = next?.read?.otlp;
      if (next === undefined || after === undefined || after === null) return false;
      if (!groupedAsOnePass(check, after)) {
        const joined: Slot = {
          id: nextId++,
          chunk: joinFrames(chunk, next.chunk as typeof chunk),
          worker: pool.idlest(slots),
          read: null,
          planned: null,
          scored: null,
          renamed: false,
        };
        for (const old of [slot, next]) {
          byId.delete(old.id);
          pool.send(old.worker, { type: 'drop', id: old.id });
        }
        slots.splice(at, 2, joined);
        dispatch(joined);
        return false;
      }
    }
    if (!slot.renamed) {
      slot.renamed = true;
      const renames: [number, number][] = [];
      check.keys.forEach((key, i) => {
        const before = emittedParts.get(key) ?? 0;
        if (before > 0) renames.push([i, before + (check.parts[i] as number)]);
      });
      if (renames.length > 0) {
        slot.read = null;
        pool.send(slot.worker, { type: 'rename', id: slot.id, parts: renames });
        return false;
      }
    }
    check.keys.forEach((key, i) => emittedParts.set(key, check.parts[i] as number));
    // its bytes are not needed any more: it will not be joined with another chunk
    slot.chunk = { ...chunk, payloads: [], bytes: new ArrayBuffer(0) };
    return true;
  };

  /** Plans a read slot in order; false when it must be read again first. */
  const plan = (slot: Slot, read: NonNullable<Slot['read']>): boolean => {
    if (read.otlp !== null && !settleOtlp(slot, read.otlp)) return false;
    if (slot.chunk.kind === 'atif' && read.trialIdCounts !== null) {
      const before = new Map(slot.chunk.trialIdCounts);
      const stale = read.trialIdCounts.some(([id]) => (before.get(id) ?? 0) !== (idCounts.get(id) ?? 0));
      if (stale) {
        // an id of this chunk was taken by an earlier one: read it again, numbering on from there
        const counts = read.trialIdCounts.map(([id]): [string, number] => [id, idCounts.get(id) ?? 0]);
        byId.delete(slot.id);
        pool.send(slot.worker, { type: 'drop', id: slot.id });
        slot.id = nextId++;
        slot.chunk = { ...slot.chunk, trialIdCounts: counts.filter(([, n]) => n > 0) };
        slot.read = null;
        dispatch(slot);
        return false;
      }
      for (const [id, n] of read.trialIdCounts) idCounts.set(id, n);
    }
    for (const issue of read.issues) options.onWarning?.(`${issue}; skipped`);
    const wires: TaskPlanWire[] = [];
    const planned: { item: TrialItem; task: TaskSpec }[] = [];
    for (const wire of read.trials) {
      rememberFloatPaths(wire.trial, wire.floats);
      const item: TrialItem = { trial: wire.trial, evidence: null, task: wire.task, origin: wire.origin };
      const taskPlan = options.plan(item);
      const taskId = wire.trial.task_id;
      if (!firsts.has(taskId)) firsts.set(taskId, { trial: wire.trial, task: wire.task });
      const known = told[slot.worker] as Set<string>;
      if (!known.has(taskId)) {
        known.add(taskId);
        wires.push({
          task: taskPlan.task,
          rowIndex: taskPlan.rowIndex,
          first: firsts.get(taskId) as TaskPlanWire['first'],
        });
      }
      planned.push({ item, task: taskPlan.task });
    }
    slot.planned = planned;
    pool.send(slot.worker, { type: 'plans', id: slot.id, plans: wires });
    return true;
  };

  try {
    for (;;) {
      while (!chunksDone && slots.length < options.workers * CHUNKS_PER_WORKER) {
        const next = await chunks.next();
        if (next.done === true) {
          chunksDone = true;
          break;
        }
        const slot: Slot = {
          id: nextId++,
          chunk: next.value,
          worker: pool.idlest(slots),
          read: null,
          planned: null,
          scored: null,
          renamed: false,
        };
        slots.push(slot);
        dispatch(slot);
      }
      while (unplanned < slots.length) {
        const slot = slots[unplanned] as Slot;
        if (slot.read === null || !plan(slot, slot.read)) break;
        unplanned += 1;
        if (slot.read.error !== null) {
          // nothing after a problem in the input is read, as in one pass
          for (const later of slots.splice(unplanned))
            pool.send(later.worker, { type: 'drop', id: later.id });
          chunksDone = true;
        }
      }
      const head = slots[0];
      if (head === undefined && chunksDone) return;
      if (head !== undefined && head.planned !== null && head.scored !== null) {
        slots.shift();
        byId.delete(head.id);
        unplanned -= 1;
        const { planned, scored } = head;
        for (let i = 0; i < planned.length; i += 1) {
          const { item, task } = planned[i] as (typeof planned)[number];
          const result = scored[i] as ScoredWire;
          result.scores.forEach((score, s) => rememberFloatPaths(score, result.floats[s] ?? null));
          if (result.trajectory !== undefined) options.onTrajectory?.(item.trial, result.trajectory);
          yield { item, scores: result.scores, task };
        }
        const error = head.read?.error ?? null;
        if (error !== null) throw errorFromWire(error);
        continue;
      }
      await pool.changed();
    }
  } finally {
    await pool.stop();
  }
}

/**
 * The worker threads of one run, and the one signal the run waits on: a message arrived (handled by
 * `onMessage`), or a worker failed, or the run was interrupted (then `changed` rejects).
 */
class WorkerPool {
  readonly #workers: Worker[] = [];
  #failure: Error | null = null;
  #pending = false;
  #wake: (() => void) | null = null;
  #stopping = false;
  readonly #stopInterrupt: () => void;
  onMessage: (message: FromWorkerMessage) => void = () => undefined;

  constructor(options: ScoreInWorkersOptions) {
    const workerData: ScoreWorkerData = {
      configFile: options.configFile,
      concurrency: options.concurrency,
      runId: options.runId,
      report: options.report,
    };
    for (let i = 0; i < options.workers; i += 1) {
      const worker = startModuleWorker(import.meta.url, 'score-worker', { workerData });
      worker.on('message', (message: FromWorkerMessage) => {
        try {
          this.onMessage(message);
        } catch (error) {
          this.#fail(error as Error);
        }
        this.#signal();
      });
      worker.on('error', (error) =>
        this.#fail(new Error(`scoring worker ${i + 1} failed: ${error.message}`)),
      );
      worker.on('exit', (code) => {
        if (!this.#stopping) this.#fail(new Error(`scoring worker ${i + 1} stopped (exit code ${code})`));
      });
      this.#workers.push(worker);
    }
    const subscription = options.interrupt?.subscribe({ error: (error: Error) => this.#fail(error) });
    this.#stopInterrupt = () => subscription?.unsubscribe();
  }

  /** Posts `message`; an OTLP chunk's bytes are moved, not copied (the worker sends them back). */
  send(worker: number, message: ToWorkerMessage): void {
    const moved =
      message.type === 'chunk' && message.chunk.kind === 'otlp-frames' ? [message.chunk.bytes] : [];
    this.#workers[worker]?.postMessage(message, moved);
  }

  /** The worker with the fewest chunks among `slots`. */
  idlest(slots: readonly Slot[]): number {
    const load = this.#workers.map(() => 0);
    for (const slot of slots) load[slot.worker] = (load[slot.worker] ?? 0) + 1;
    return load.indexOf(Math.min(...load));
  }

  /** Resolves once something happened since the last call; rejects when the run failed. */
  changed(): Promise<void> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.#wake = () => {
        this.#pending = false;
        if (this.#failure !== null) reject(this.#failure);
        else resolve();
      };
    });
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#stopInterrupt();
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    this.#signal();
  }

  #signal(): void {
    this.#pending = true;
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
