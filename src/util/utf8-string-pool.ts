import { grownTypedArray } from './grown-typed-array.js';

/** Bytes per slab: strings are written one after another into slabs of this size. */
const SLAB_BYTES = 4 * 1024 * 1024;
/** A string whose UTF-8 form may exceed this (3 bytes per UTF-16 unit at most) gets a slab of its own. */
const OWN_SLAB_BYTES = SLAB_BYTES / 4;

/** `String.prototype.isWellFormed` (ES2024; V8 has it since Node 20). */
const isWellFormed = (value: string): boolean =>
  (value as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * Keeps many strings as UTF-8 bytes in a few large buffers instead of as strings on the JavaScript
 * heap: a heap string is an object that every major garbage collection marks (a string built by
 * concatenation is a chain of several), bytes in a buffer are not. `add` returns an id, `get(id)`
 * decodes an equal (flat) string. Only well-formed strings can be kept (a lone surrogate has no
 * UTF-8 form): `canKeep` says which, `add` throws on the others and `tryAdd` returns -1 for them.
 * Append-only.
 *
 * @example
 * const pool = new Utf8StringPool();
 * const id = pool.add('run:task:trial:metric');
 * pool.get(id); // 'run:task:trial:metric'
 */
export class Utf8StringPool {
  readonly #slabs: Buffer[] = [];
  /** The slab strings are appended to, and how much of it is used. */
  #current: Buffer | null = null;
  #currentIndex = -1;
  #used = 0;
  #slabOf = new Int32Array(1024);
  #start = new Int32Array(1024);
  #length = new Int32Array(1024);
  #count = 0;
  #bytes = 0;

  /** Number of strings kept. */
  get size(): number {
    return this.#count;
  }

  /** UTF-8 bytes held (the strings' encoded size, not the slabs' capacity). */
  get bytes(): number {
    return this.#bytes;
  }

  /** True when `value` can be kept (it is well-formed UTF-16: no lone surrogate). */
  canKeep(value: string): boolean {
    return isWellFormed(value);
  }

  /** Keeps `value`; returns its id. Throws on a string with a lone surrogate (see `canKeep`). */
  add(value: string): number {
    const id = this.tryAdd(value);
    if (id < 0) throw new TypeError('Utf8StringPool: a string with a lone surrogate');
    return id;
  }

  /** Keeps `value` and returns its id, or returns -1 for a string with a lone surrogate. */
  tryAdd(value: string): number {
    if (!isWellFormed(value)) return -1;
    let slabIndex: number;
    let start = 0;
    let length: number;
    if (value.length * 3 > OWN_SLAB_BYTES) {
      // may be longer than a shared slab (UTF-8 takes at most 3 bytes per UTF-16 unit): its own
      const own = Buffer.from(value, 'utf8');
      slabIndex = this.#slabs.push(own) - 1;
      length = own.length;
    } else {
      if (this.#current === null || this.#used + value.length * 3 > SLAB_BYTES) {
        this.#current = Buffer.allocUnsafe(SLAB_BYTES);
        this.#currentIndex = this.#slabs.push(this.#current) - 1;
        this.#used = 0;
      }
      slabIndex = this.#currentIndex;
      start = this.#used;
      length = this.#current.write(value, start, 'utf8');
      this.#used += length;
    }
    const id = this.#count;
    if (id === this.#slabOf.length) {
      this.#slabOf = grownTypedArray(this.#slabOf, id * 2);
      this.#start = grownTypedArray(this.#start, id * 2);
      this.#length = grownTypedArray(this.#length, id * 2);
    }
    this.#slabOf[id] = slabIndex;
    this.#start[id] = start;
    this.#length[id] = length;
    this.#count = id + 1;
    this.#bytes += length;
    return id;
  }

  /** The string kept as `id` (a new string at every call). */
  get(id: number): string {
    if (!(id >= 0 && id < this.#count)) throw new RangeError(`no string ${id} (${this.#count} kept)`);
    const slab = this.#slabs[this.#slabOf[id] as number] as Buffer;
    const start = this.#start[id] as number;
    return slab.toString('utf8', start, start + (this.#length[id] as number));
  }
}
