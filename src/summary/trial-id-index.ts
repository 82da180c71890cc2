import { PackedStringSet } from '../util/packed-string-set.js';
import type { TrialIds } from './task-value-column.js';

/**
 * A task's trial ids by position, as entries of a `PackedStringSet` that the summary's tasks share:
 * a run keeps one id per trial until its summary is written, and off the heap they cost a third of
 * what a string each does.
 *
 * @example
 * const store = new PackedStringSet();
 * const ids = new TrialIdList(store, [store.intern('t1'), store.intern('t2')]);
 * ids.at(1); // 't2'
 */
export class TrialIdList implements TrialIds {
  constructor(
    private readonly store: PackedStringSet,
    private readonly entries: number[],
  ) {}

  get length(): number {
    return this.entries.length;
  }

  at(index: number): string | undefined {
    const entry = this.entries[index];
    return entry === undefined ? undefined : this.store.at(entry);
  }

  /** A copy that later additions to this list do not change. */
  slice(): TrialIdList {
    return new TrialIdList(this.store, this.entries.slice());
  }
}

/**
 * A task's trial ids in first-seen order (`ids`), each with its position. A trial's scores usually
 * come one after another, so `add` only compares with the last id and appends any other: a repeat
 * that is not consecutive gets a new position for now, and `compact()` folds such repeats into their
 * first position once the positions are read. No lookup table per trial stays between the two (on a
 * run of many small trials it was the summary's largest per-trial cost).
 *
 * @example
 * const index = new TrialIdIndex();
 * index.add('t1'); // 0
 * index.add('t1'); // 0
 * index.add('t2'); // 1
 * index.add('t1'); // 2, until compacted
 * index.compact(); // Int32Array [0, 1, 0]: old position → new
 * index.ids.at(1); // 't2'
 */
export class TrialIdIndex {
  /** Entries in `store`, by position. */
  readonly #entries: number[] = [];
  readonly #store: PackedStringSet;
  /** The id last added (most adds repeat it) and its entry. */
  #lastId: string | null = null;
  #lastEntry = -1;
  /** Positions before this one hold no repeat. */
  #distinct = 0;
  /** The ids by position. */
  readonly ids: TrialIdList;

  /** `store` holds the ids (shared by a summary's tasks; default: one of its own). */
  constructor(store: PackedStringSet = new PackedStringSet()) {
    this.#store = store;
    this.ids = new TrialIdList(store, this.#entries);
  }

  /** The position of `id`: the last one when `id` is the last id added, else a new one at the end. */
  add(id: string): number {
    const entries = this.#entries;
    const last = entries.length - 1;
    if (id === this.#lastId) return last;
    const entry = this.#store.intern(id);
    this.#lastId = id;
    this.#lastEntry = entry;
    if (last >= 0 && entries[last] === entry) return last;
    entries.push(entry);
    return last + 1;
  }

  /**
   * Folds the repeats added since the last call into the first position of their id, keeping
   * first-seen order, and returns the map from old positions to new ones (to rewrite the positions
   * handed out), or null when there was no repeat.
   */
  compact(): Int32Array | null {
    const entries = this.#entries;
    const n = entries.length;
    if (this.#distinct === n) return null;
    const first = new Map<number, number>();
    let repeats = false;
    for (let i = 0; i < n && !repeats; i++) {
      const entry = entries[i] as number;
      if (first.has(entry)) repeats = true;
      else first.set(entry, i);
    }
    if (!repeats) {
      this.#distinct = n;
      return null;
    }
    const remap = new Int32Array(n);
    let at = 0;
    first.clear();
    for (let i = 0; i < n; i++) {
      const entry = entries[i] as number;
      const seen = first.get(entry);
      if (seen !== undefined) {
        remap[i] = seen;
        continue;
      }
      first.set(entry, at);
      remap[i] = at;
      entries[at++] = entry;
    }
    entries.length = at;
    this.#distinct = at;
    // the last id keeps its entry; its position is now that of its first occurrence
    if (this.#lastEntry >= 0 && entries[at - 1] !== this.#lastEntry) this.#lastId = null;
    return remap;
  }
}
