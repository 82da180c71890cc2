import type { Trial } from '../model/trial.js';
import { fnv1aUtf16 } from '../util/fnv1a-utf16.js';

/** The bounds of {@link TrajectorySelection}; see `ReportOptions`. */
export interface SelectionLimits {
  /** Failed or errored trials kept, in arrival order. */
  failed: number;
  /** Other trials kept: those with the smallest hash of task and trial id. */
  sample: number;
}

/** Why a trial was kept. */
export type SelectionReason = 'failed' | 'sample';

/** A trial whose status is `failed` or that carries an error. */
function isFailedTrial(trial: Pick<Trial, 'status' | 'error'>): boolean {
  return trial.status === 'failed' || (trial.error !== null && trial.error !== undefined);
}

interface Sampled {
  hash: number;
  row: number;
}

/**
 * Decides, one trial at a time, which trials keep their drill-down detail: every failed or errored
 * trial up to `limits.failed` (first come), then a deterministic sample of `limits.sample` others (the
 * smallest FNV-1a hashes (`fnv1aUtf16`, unsigned) of `task id + trial id`, so the same run gives the same sample whatever the
 * order). A sampled trial may later be displaced by one with a smaller hash; `offer` says which row
 * that was, so its detail can be dropped.
 *
 * @example
 * const selection = new TrajectorySelection({ failed: 200, sample: 100 });
 * if (selection.wants(trial)) { const { kept, dropped } = selection.offer(trial, row); }
 */
export class TrajectorySelection {
  readonly #limits: SelectionLimits;
  #failed = 0;
  /** Sampled rows, largest hash first. */
  readonly #sample: Sampled[] = [];

  constructor(limits: SelectionLimits) {
    this.#limits = limits;
  }

  /** Whether `trial` would be kept now (nothing is recorded). */
  wants(trial: Pick<Trial, 'task_id' | 'id' | 'status' | 'error'>): boolean {
    if (isFailedTrial(trial)) return this.#failed < this.#limits.failed;
    if (this.#limits.sample <= 0) return false;
    if (this.#sample.length < this.#limits.sample) return true;
    return this.#hash(trial) < (this.#sample[0] as Sampled).hash;
  }

  /**
   * Records `trial` (at `row`) if it is kept: the reason, and the sampled row it displaced (or null).
   */
  offer(
    trial: Pick<Trial, 'task_id' | 'id' | 'status' | 'error'>,
    row: number,
  ): { kept: SelectionReason | null; dropped: number | null } {
    if (!this.wants(trial)) return { kept: null, dropped: null };
    if (isFailedTrial(trial)) {
      this.#failed += 1;
      return { kept: 'failed', dropped: null };
    }
    const entry = { hash: this.#hash(trial), row };
    let dropped: number | null = null;
    if (this.#sample.length >= this.#limits.sample) dropped = (this.#sample.shift() as Sampled).row;
    // keep the list sorted by hash, largest first (it holds at most `limits.sample` entries)
    let at = 0;
    while (at < this.#sample.length && (this.#sample[at] as Sampled).hash > entry.hash) at += 1;
    this.#sample.splice(at, 0, entry);
    return { kept: 'sample', dropped };
  }

  #hash(trial: Pick<Trial, 'task_id' | 'id'>): number {
    return fnv1aUtf16(`${trial.task_id}\u0000${trial.id}`) >>> 0;
  }
}
