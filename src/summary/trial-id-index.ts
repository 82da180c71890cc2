/**
 * A task's distinct trial ids in first-seen order (`ids`), each with its position.
 *
 * @example
 * const index = new TrialIdIndex();
 * index.add('t1'); // 0
 * index.add('t2'); // 1
 * index.add('t1'); // 0
 * index.ids; // ['t1', 't2']
 */
export class TrialIdIndex {
  readonly ids: string[] = [];
  readonly #positions = new Map<string, number>();
  #last = -1;

  /** The position of `id` in `ids`, adding it at the end when it is new. */
  add(id: string): number {
    // a trial's scores usually come one after another
    if (this.#last >= 0 && this.ids[this.#last] === id) return this.#last;
    let at = this.#positions.get(id);
    if (at === undefined) {
      at = this.ids.length;
      this.ids.push(id);
      this.#positions.set(id, at);
    }
    return (this.#last = at);
  }
}
