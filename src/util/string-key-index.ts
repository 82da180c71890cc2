import { randomBytes } from 'node:crypto';
import { fnv1aUtf16, FNV1A_BASIS } from './fnv1a-utf16.js';
import { grownTypedArray } from './grown-typed-array.js';

/** Slots per key at most before the table doubles (load factor 1/2). */
const MAX_LOAD = 0.5;
const EMPTY = -1;

/**
 * A map from string keys to non-negative integers that keeps its keys as UTF-16 code units in a
 * typed array instead of as strings on the JavaScript heap: a live server's per-trial keys (trial
 * keys, trial ids, sealed trace ids) number in the hundreds of thousands, and as heap strings in a
 * `Map` every major garbage collection marks each of them again. Here they cost the collector
 * nothing. Any string is a key (code units are kept as they are: lone surrogates included).
 * Open addressing with linear probing over FNV-1a hashes of the code units, from a random basis per
 * index (as V8 seeds its own string hashes), so that keys chosen to collide cannot be sent to make
 * every lookup walk the table; the seed changes only where keys sit, never a result. Keys are never
 * removed one by one (`clear` empties it).
 *
 * @example
 * const ids = new StringKeyIndex();
 * ids.set('trial-1', 0);
 * ids.get('trial-1'); // 0
 * ids.get('trial-2'); // undefined
 */
export class StringKeyIndex {
  /** Per slot: the entry there, or EMPTY. */
  #slots = new Int32Array(1024).fill(EMPTY);
  #mask = 1023;
  /** Per entry: its key's first code unit in `#units`, its key's length, its hash and its value. */
  #keyStart = new Float64Array(512);
  #keyLength = new Int32Array(512);
  #hash = new Int32Array(512);
  #value = new Float64Array(512);
  #size = 0;
  #units = new Uint16Array(16384);
  #unitCount = 0;
  readonly #seed = FNV1A_BASIS ^ randomBytes(4).readInt32LE(0);

  /** Number of keys. */
  get size(): number {
    return this.#size;
  }

  /** The value of `key`, or undefined. */
  get(key: string): number | undefined {
    const entry = this.#find(key, fnv1aUtf16(key, this.#seed));
    return entry === EMPTY ? undefined : (this.#value[entry] as number);
  }

  /** Whether `key` is there. */
  has(key: string): boolean {
    return this.#find(key, fnv1aUtf16(key, this.#seed)) !== EMPTY;
  }

  /** Sets `key` to `value` (a non-negative integer up to 2^53). */
  set(key: string, value: number): this {
    if (!(Number.isSafeInteger(value) && value >= 0))
      throw new RangeError(`StringKeyIndex: value ${value} is not a non-negative integer`);
    const hash = fnv1aUtf16(key, this.#seed);
    const found = this.#find(key, hash);
    if (found !== EMPTY) {
      this.#value[found] = value;
      return this;
    }
    if (this.#size + 1 > this.#slots.length * MAX_LOAD) this.#grow();
    const entry = this.#size;
    if (entry === this.#hash.length) {
      const n = entry * 2;
      this.#keyStart = grownTypedArray(this.#keyStart, n);
      this.#keyLength = grownTypedArray(this.#keyLength, n);
      this.#hash = grownTypedArray(this.#hash, n);
      this.#value = grownTypedArray(this.#value, n);
    }
    if (this.#unitCount + key.length > this.#units.length)
      this.#units = grownTypedArray(
        this.#units,
        Math.max(this.#unitCount + key.length, this.#units.length * 2),
      );
    const units = this.#units;
    const start = this.#unitCount;
    for (let i = 0; i < key.length; i++) units[start + i] = key.charCodeAt(i);
    this.#unitCount = start + key.length;
    this.#keyStart[entry] = start;
    this.#keyLength[entry] = key.length;
    this.#hash[entry] = hash;
    this.#value[entry] = value;
    this.#size = entry + 1;
    this.#place(entry, hash);
    return this;
  }

  /** Removes every key. */
  clear(): void {
    this.#slots = new Int32Array(1024).fill(EMPTY);
    this.#mask = 1023;
    this.#size = 0;
    this.#unitCount = 0;
  }

  #find(key: string, hash: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot] as number;
      if (entry === EMPTY) return EMPTY;
      if (this.#hash[entry] === hash && this.#equals(entry, key)) return entry;
    }
  }

  #equals(entry: number, key: string): boolean {
    if (this.#keyLength[entry] !== key.length) return false;
    const units = this.#units;
    const start = this.#keyStart[entry] as number;
    for (let i = 0; i < key.length; i++) if (units[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  #place(entry: number, hash: number): void {
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = hash & mask;
    while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    slots[slot] = entry;
  }

  #grow(): void {
    this.#slots = new Int32Array(this.#slots.length * 2).fill(EMPTY);
    this.#mask = this.#slots.length - 1;
    for (let entry = 0; entry < this.#size; entry++) this.#place(entry, this.#hash[entry] as number);
  }
}
