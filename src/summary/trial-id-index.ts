import { randomBytes } from 'node:crypto';
import { FNV1A_BASIS, fnv1aUtf16 } from '../util/fnv1a-utf16.js';

const EMPTY = -1;

/**
 * A task's distinct trial ids in first-seen order (`ids`), with their positions found by hash: an
 * open-addressing table of positions into `ids` (4 bytes a slot, at most half full, outside the
 * JavaScript heap) instead of a `Map` from each id (about 40 bytes an entry on the heap). The ids
 * themselves are the strings the records already share. FNV-1a from a random basis per index, so that
 * ids chosen to collide cannot make every lookup walk the table; the basis changes only where ids
 * sit, never a position.
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
  #slots = new Int32Array(8).fill(EMPTY);
  #last = -1;
  readonly #seed = FNV1A_BASIS ^ randomBytes(4).readInt32LE(0);

  /** The position of `id` in `ids`, adding it at the end when it is new. */
  add(id: string): number {
    // a trial's scores usually come one after another
    if (this.#last >= 0 && this.ids[this.#last] === id) return this.#last;
    const mask = this.#slots.length - 1;
    let slot = fnv1aUtf16(id, this.#seed) & mask;
    for (;;) {
      const at = this.#slots[slot] as number;
      if (at === EMPTY) break;
      if (this.ids[at] === id) return (this.#last = at);
      slot = (slot + 1) & mask;
    }
    const at = this.ids.length;
    this.ids.push(id);
    this.#slots[slot] = at;
    if (this.ids.length * 2 > this.#slots.length) this.#grow();
    return (this.#last = at);
  }

  #grow(): void {
    const slots = new Int32Array(this.#slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let at = 0; at < this.ids.length; at++) {
      let slot = fnv1aUtf16(this.ids[at] as string, this.#seed) & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = at;
    }
    this.#slots = slots;
  }
}
