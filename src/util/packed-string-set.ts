import { fnv1aUtf16 } from './fnv1a-utf16.js';

/**
 * A set of strings kept as UTF-8 bytes in buffers outside the JavaScript heap, with an
 * open-addressing table of typed arrays; each string has an entry number, in the order of adding.
 * For what gains one string per trial of a run: the trial ids a grouper emitted, the trace ids
 * `serve` sealed, the trial ids a summary refers to.
 *
 * Why not a `Set`: on a 1 GB dump of 142k small trials, the grouper's `Set` of emitted trial ids
 * alone added 20 MB to `score`'s peak RSS (a hash table on the heap is one large object, copied as it
 * grows, and the heap is sized from its live data), against about 6 MB for these arrays. Strings are
 * compared exactly: a hash only picks the slot.
 *
 * @example
 * const ids = new PackedStringSet();
 * ids.add('trial-1'); // true: it was new
 * ids.add('trial-1'); // false
 * ids.has('trial-2'); // false
 * ids.intern('trial-2'); // 1, its entry
 * ids.at(1); // 'trial-2'
 */
export class PackedStringSet {
  #bytes = Buffer.allocUnsafe(1 << 12);
  #used = 0;
  /** Entry i's bytes are `#starts[i] .. #starts[i + 1]`. */
  #starts = new Int32Array(65);
  /** Entry i's full hash, so that a probe compares bytes only when the hashes agree. */
  #hashes = new Int32Array(64);
  /** Entry index + 1 per slot, 0 for an empty one; the length is a power of two. */
  #slots = new Int32Array(128);
  #size = 0;
  /** Strings with a lone surrogate, which UTF-8 cannot keep (on the heap: they are rare), by entry. */
  #unpaired: Map<string, number> | null = null;
  #unpairedAt: Map<number, string> | null = null;

  /** The number of strings held. */
  get size(): number {
    return this.#size;
  }

  /** Whether `s` is held. */
  has(s: string): boolean {
    return this.indexOf(s) >= 0;
  }

  /** Adds `s`; returns whether it was new. */
  add(s: string): boolean {
    const size = this.#size;
    return this.intern(s) === size;
  }

  /** The entry of `s` (0, 1, … in the order strings were added), or -1. */
  indexOf(s: string): number {
    if (LONE_SURROGATE.test(s)) return this.#unpaired?.get(s) ?? -1;
    const found = this.#find(s, fnv1aUtf16(s));
    return found >= 0 ? found : -1;
  }

  /** The entry of `s`, added when new. */
  intern(s: string): number {
    const entry = this.#size;
    if (LONE_SURROGATE.test(s)) {
      const known = this.#unpaired?.get(s);
      if (known !== undefined) return known;
      (this.#unpaired ??= new Map()).set(s, entry);
      (this.#unpairedAt ??= new Map()).set(entry, s);
      this.#append(entry, '', 0);
      return entry;
    }
    const hash = fnv1aUtf16(s);
    const found = this.#find(s, hash);
    if (found >= 0) return found;
    this.#append(entry, s, hash);
    // -found - 1 is the free slot the probe ended on
    this.#slots[-found - 1] = entry + 1;
    if (this.#size * 2 > this.#slots.length) this.#rehash();
    return entry;
  }

  /** The string of entry `i` (0 ≤ i < size). */
  at(i: number): string {
    if (!(i >= 0 && i < this.#size)) throw new RangeError(`PackedStringSet: no entry ${i}`);
    if (this.#unpairedAt !== null) {
      const s = this.#unpairedAt.get(i);
      if (s !== undefined) return s;
    }
    return this.#bytes.toString('utf8', this.#starts[i] as number, this.#starts[i + 1] as number);
  }

  #append(entry: number, s: string, hash: number): void {
    if (entry === this.#hashes.length) this.#growEntries();
    // room for the longest UTF-8 form of `s` (3 bytes per UTF-16 code unit)
    if (this.#used + s.length * 3 > this.#bytes.length) this.#growBytes(this.#used + s.length * 3);
    this.#used += this.#bytes.write(s, this.#used, 'utf8');
    this.#starts[entry + 1] = this.#used;
    this.#hashes[entry] = hash;
    this.#size = entry + 1;
  }

  /** Forgets every string (and the room they took). */
  clear(): void {
    this.#bytes = Buffer.allocUnsafe(1 << 12);
    this.#used = 0;
    this.#starts = new Int32Array(65);
    this.#hashes = new Int32Array(64);
    this.#slots = new Int32Array(128);
    this.#size = 0;
    this.#unpaired = null;
    this.#unpairedAt = null;
  }

  /** The entry holding `s`, or -(free slot + 1) where it would go. */
  #find(s: string, hash: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let at = mix(hash) & mask; ; at = (at + 1) & mask) {
      const e = slots[at] as number;
      if (e === 0) return -at - 1;
      const entry = e - 1;
      if (this.#hashes[entry] === hash && this.#equals(entry, s)) return entry;
    }
  }

  #equals(entry: number, s: string): boolean {
    const start = this.#starts[entry] as number;
    const end = this.#starts[entry + 1] as number;
    // an entry's byte count is at least its UTF-16 length and at most three times it
    if (end - start < s.length || end - start > s.length * 3) return false;
    return this.#bytes.toString('utf8', start, end) === s;
  }

  #growEntries(): void {
    const n = this.#hashes.length * 2;
    const hashes = new Int32Array(n);
    hashes.set(this.#hashes);
    this.#hashes = hashes;
    const starts = new Int32Array(n + 1);
    starts.set(this.#starts);
    this.#starts = starts;
  }

  #growBytes(atLeast: number): void {
    // offsets are int32: a set holds at most 2 GiB of strings (about 50M UUID-long ids)
    if (atLeast > MAX_BYTES) throw new RangeError('PackedStringSet: more than 2 GiB of strings');
    let n = this.#bytes.length * 2;
    while (n < atLeast) n *= 2;
    n = Math.min(n, MAX_BYTES);
    const bytes = Buffer.allocUnsafe(n);
    this.#bytes.copy(bytes, 0, 0, this.#used);
    this.#bytes = bytes;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let entry = 0; entry < this.#size; entry++) {
      if (this.#unpairedAt?.has(entry) === true) continue;
      let at = mix(this.#hashes[entry] as number) & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = entry + 1;
    }
    this.#slots = slots;
  }
}

const MAX_BYTES = 0x7fffffff;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Spreads FNV-1a's bits over the low ones the table index takes (MurmurHash3's finalizer). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
