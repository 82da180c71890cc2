import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../util/start-module-worker.js';
import type { ClaimedScanJob } from './scan-claimed-ranges.js';
import type { ScanRangeResult } from './scan-rollout-range.js';
import type { MergeSource } from './write-merged-rollouts.js';

interface Slot {
  worker: Worker;
  pending: ((m: unknown) => void) | null;
  failed: ((e: Error) => void) | null;
  dead: Error | null;
}

/**
 * Worker threads for `gym aggregate`: they read byte ranges of the inputs while the main thread reads
 * its own, and then one writes the merged file while the main thread computes the statistics. Each
 * worker runs one job at a time; a worker that cannot start or dies rejects its job (callers then do
 * the work in the main thread).
 *
 * @example
 * const pool = new GymWorkerPool(1);
 * await pool.merge(0, table, order, 'merged.jsonl');
 * await pool.close();
 */
export class GymWorkerPool {
  private readonly slots: Slot[] = [];
  private closed = false;

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const worker = startModuleWorker(import.meta.url, 'gym-worker');
      const slot: Slot = { worker, pending: null, failed: null, dead: null };
      const die = (e: Error): void => {
        if (slot.dead === null) slot.dead = e;
        slot.failed?.(e);
        slot.pending = null;
        slot.failed = null;
      };
      worker.on('error', die);
      worker.on('exit', (code) => die(new Error(`gym worker exited with code ${code}`)));
      worker.on('message', (m: unknown) => {
        const done = slot.pending;
        slot.pending = null;
        slot.failed = null;
        done?.(m);
      });
      this.slots.push(slot);
    }
  }

  private async run(index: number, message: object, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const slot = this.slots[index] as Slot;
    if (slot.dead !== null) throw slot.dead;
    return new Promise<unknown>((resolve, reject) => {
      slot.pending = resolve;
      slot.failed = reject;
      slot.worker.postMessage(message, transfer);
    });
  }

  /**
   * Reads in worker `index` (which must be idle) the ranges of the job it claims
   * (`scanClaimedRanges`): `[index, result]` pairs. Rejects when the worker could not start or died.
   */
  async scan(index: number, job: ClaimedScanJob): Promise<[number, ScanRangeResult][]> {
    const m = (await this.run(index, { scan: job })) as { results: [number, ScanRangeResult][] };
    return m.results;
  }

  /**
   * Writes the merged file in worker `index` (see `writeMergedRollouts`): true when written, false
   * when the worker could not start or died (the caller then writes it itself); rejects with the
   * merge's own error (e.g. a shard changed while being merged).
   */
  async merge(index: number, source: MergeSource, order: Int32Array, outPath: string): Promise<boolean> {
    const copy: MergeSource = {
      files: [...source.files],
      file: source.file.slice(0, order.length),
      line: source.line.slice(0, order.length),
      offset: source.offset.slice(0, order.length),
      length: source.length.slice(0, order.length),
    };
    const ord = order.slice();
    const buffers = [copy.file, copy.line, copy.offset, copy.length, ord].map((a) => a.buffer as ArrayBuffer);
    let m: { error?: string };
    try {
      m = (await this.run(index, { merge: { source: copy, order: ord, outPath } }, buffers)) as {
        error?: string;
      };
    } catch {
      return false;
    }
    if (m.error !== undefined) throw new Error(m.error);
    return true;
  }

  /** Stops the workers (again: no-op). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
