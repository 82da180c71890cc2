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
 * index.ids; // ['t1', 't2']
 */
export class TrialIdIndex {
  readonly ids: string[] = [];
  /** `ids` before this position hold no repeat. */
  #distinct = 0;

  /** The position of `id`: the last one when `id` is the last id added, else a new one at the end. */
  add(id: string): number {
    const last = this.ids.length - 1;
    if (last >= 0 && this.ids[last] === id) return last;
    this.ids.push(id);
    return last + 1;
  }

  /**
   * Folds the repeats added since the last call into the first position of their id, keeping
   * first-seen order, and returns the map from old positions to new ones (to rewrite the positions
   * handed out), or null when there was no repeat.
   */
  compact(): Int32Array | null {
    const ids = this.ids;
    const n = ids.length;
    if (this.#distinct === n) return null;
    const first = new Map<string, number>();
    let repeats = false;
    for (let i = 0; i < n && !repeats; i++) {
      const id = ids[i] as string;
      if (first.has(id)) repeats = true;
      else first.set(id, i);
    }
    if (!repeats) {
      this.#distinct = n;
      return null;
    }
    const remap = new Int32Array(n);
    let at = 0;
    first.clear();
    for (let i = 0; i < n; i++) {
      const id = ids[i] as string;
      const seen = first.get(id);
      if (seen !== undefined) {
        remap[i] = seen;
        continue;
      }
      first.set(id, at);
      remap[i] = at;
      ids[at++] = id;
    }
    ids.length = at;
    this.#distinct = at;
    return remap;
  }
}
