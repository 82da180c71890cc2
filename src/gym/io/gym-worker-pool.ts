import { Worker } from 'node:worker_threads';
import type { RolloutTableTransfer } from '../rows/rollout-table-transfer.js';
import type { LoadRolloutFileOptions } from './load-rollout-file.js';
import type { RolloutLineErrorParts } from './rollout-line-error.js';
import type { MergeSource } from './write-merged-rollouts.js';

/** What scanning one byte range gave: its rows and line count, or the parts of its first error. */
export type ScanRangeResult =
  { lines: number; table: RolloutTableTransfer } | { parts: RolloutLineErrorParts | null; message: string };

/** A byte range of a file to scan. */
export interface ScanRangeJob {
  path: string;
  start: number;
  end: number;
  options: LoadRolloutFileOptions;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  pending: ((m: unknown) => void) | null;
  failed: ((e: Error) => void) | null;
  dead: Error | null;
}

/**
 * Starts a worker running `gym-worker.js`. Built code runs it directly; TypeScript sources (run through
 * tsx, e.g. tests and benchmarks) need tsx registered inside the worker first, as loader hooks are
 * per thread.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./gym-worker.js', import.meta.url));
  const script = new URL('./gym-worker.ts', import.meta.url).href;
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script)}); });`;
  return new Worker(code, { eval: true });
}

/**
 * Worker threads for `gym aggregate`: they scan byte ranges of the inputs (in parallel with the main
 * thread) and then write the merged file while the main thread computes the statistics. Each worker
 * runs one job at a time; a worker that cannot start or dies rejects its job (callers fall back to
 * the main thread).
 *
 * @example
 * const pool = new GymWorkerPool(1);
 * const result = await pool.scan(0, { path: 'a.jsonl', start: 0, end: 1 << 20, options: { cut: true } });
 * await pool.close();
 */
export class GymWorkerPool {
  private readonly slots: Slot[] = [];

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const worker = startWorker();
      let onReady: () => void = () => {};
      let onFail: (e: Error) => void = () => {};
      const slot: Slot = {
        worker,
        ready: new Promise<void>((resolve, reject) => {
          onReady = resolve;
          onFail = reject;
        }),
        pending: null,
        failed: null,
        dead: null,
      };
      slot.ready.catch(() => {});
      const die = (e: Error): void => {
        if (slot.dead === null) slot.dead = e;
        onFail(e);
        slot.failed?.(e);
        slot.pending = null;
        slot.failed = null;
      };
      worker.on('error', die);
      worker.on('exit', (code) => die(new Error(`gym worker exited with code ${code}`)));
      worker.on('message', (m: unknown) => {
        if (m !== null && typeof m === 'object' && 'ready' in m) {
          onReady();
          return;
        }
        const done = slot.pending;
        slot.pending = null;
        slot.failed = null;
        done?.(m);
      });
      this.slots.push(slot);
    }
  }

  /** Number of workers. */
  get size(): number {
    return this.slots.length;
  }

  private async run(index: number, message: object, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const slot = this.slots[index] as Slot;
    await slot.ready;
    if (slot.dead !== null) throw slot.dead;
    return new Promise<unknown>((resolve, reject) => {
      slot.pending = resolve;
      slot.failed = reject;
      slot.worker.postMessage(message, transfer);
    });
  }

  /** Scans a byte range in worker `index` (which must be idle). */
  async scan(index: number, job: ScanRangeJob): Promise<ScanRangeResult> {
    return (await this.run(index, { scan: job })) as ScanRangeResult;
  }

  /** Writes the merged file in worker `index` (see `writeMergedRollouts`); rejects with its error. */
  async merge(index: number, source: MergeSource, order: Int32Array, outPath: string): Promise<void> {
    const copy: MergeSource = {
      files: [...source.files],
      file: source.file.slice(0, order.length),
      line: source.line.slice(0, order.length),
      offset: source.offset.slice(0, order.length),
      length: source.length.slice(0, order.length),
      flags: source.flags.slice(0, order.length),
    };
    const ord = order.slice();
    const buffers = [copy.file, copy.line, copy.offset, copy.length, copy.flags, ord].map(
      (a) => a.buffer as ArrayBuffer,
    );
    const m = (await this.run(index, { merge: { source: copy, order: ord, outPath } }, buffers)) as {
      error?: string;
    };
    if (m.error !== undefined) throw new Error(m.error);
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
