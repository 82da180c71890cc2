import type { ScoreRecord } from '../model/score-record.js';
import type { ScoredTrial } from '../model/scored-trial.js';
import type { TaskSpec } from '../model/task.js';
import type { TrialItem } from '../model/trial-item.js';
import { PackedTreeStore } from '../util/packed-tree-store.js';
import type { ReadyReason } from './live-trial-assembler.js';

/** One kept trial as read back: its latest scored version. */
export interface KeptTrial {
  readonly scored: ScoredTrial;
  readonly version: number;
  readonly completion: ReadyReason;
}

const REASONS: readonly ReadyReason[] = ['ended', 'idle-timeout', 'late-spans', 'shutdown'];

/**
 * The latest scored version of every trial a live server has scored, kept for the summary, the
 * trial API and the bundle written at shutdown. A server keeps every trial it scored, so this is what
 * grows with a run: the records (trial record and score records, ~50 small objects per trial) are
 * packed into a {@link PackedTreeStore} (shapes, numbers in typed arrays, repeated strings shared,
 * the others as UTF-8 bytes) instead of staying on the heap as objects and strings that every major
 * garbage collection marks again; the
 * task specs are shared by reference. Trials keep the slot of their first scoring (the run's trial
 * order); a re-scored trial's new version replaces its slot's content (the old packed record stays
 * in the store as garbage: re-scorings are rare).
 *
 * @example
 * const kept = new KeptTrials();
 * const slot = kept.put(null, scored, 1, 'ended');
 * kept.get(slot).scored.scores; // equal to scored.scores
 */
export class KeptTrials {
  readonly #trees = new PackedTreeStore();
  readonly #tasks: TaskSpec[] = [];
  readonly #taskIds = new Map<TaskSpec, number>();
  #tree: number[] = [];
  #version: number[] = [];
  #completion: number[] = [];
  #task: number[] = [];

  /** Number of trials kept. */
  get size(): number {
    return this.#tree.length;
  }

  /**
   * Keeps `scored` (its trial evidence must already be dropped) in `slot`, or in a new slot when
   * `slot` is null; returns the slot.
   */
  put(slot: number | null, scored: ScoredTrial, version: number, completion: ReadyReason): number {
    const at = slot ?? this.#tree.length;
    let task = this.#taskIds.get(scored.task);
    if (task === undefined) {
      task = this.#tasks.length;
      this.#tasks.push(scored.task);
      this.#taskIds.set(scored.task, task);
    }
    this.#tree[at] = this.#trees.add([scored.item, scored.scores]);
    this.#version[at] = version;
    this.#completion[at] = REASONS.indexOf(completion);
    this.#task[at] = task;
    return at;
  }

  /** The version kept in `slot`. */
  version(slot: number): number {
    return this.#version[slot] as number;
  }

  /** The trial in `slot`, rebuilt (new objects at every call). */
  get(slot: number): KeptTrial {
    const [item, scores] = this.#trees.get(this.#tree[slot] as number) as [TrialItem, ScoreRecord[]];
    return {
      scored: { item, scores, task: this.#tasks[this.#task[slot] as number] as TaskSpec },
      version: this.#version[slot] as number,
      completion: REASONS[this.#completion[slot] as number] as ReadyReason,
    };
  }
}
