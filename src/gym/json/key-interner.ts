interface Entry {
  bytes: Uint8Array;
  id: number;
}

/**
 * Maps object-key bytes to small integer ids without creating a string per occurrence: keys are
 * looked up by an FNV-1a hash of their raw bytes and compared byte for byte; escaped keys are decoded
 * and looked up by their text. `names[id]` is the decoded key.
 *
 * @example
 * const keys = new KeyInterner();
 * keys.idOfString('reward'); // 0
 */
export class KeyInterner {
  readonly names: string[] = [];
  private readonly byHash = new Map<number, Entry[]>();
  /** Direct-mapped cache of recent keys by the low bits of their hash. */
  private readonly recent: (Entry | undefined)[] = new Array<Entry | undefined>(1024).fill(undefined);
  private readonly byName = new Map<string, number>();
  /** Raw bytes of each id first seen unescaped (what {@link guess} compares). */
  private readonly rawOf: (Uint8Array | undefined)[] = [];
  /** Per slot (see `JsonCursor.readKey`), the id last read there, or -1. */
  private readonly slots = new Int32Array(128).fill(-1);

  /** The raw bytes of the key last read at `slot`, or null. */
  guess(slot: number): Uint8Array | null {
    const id = this.slots[slot] as number;
    return id < 0 ? null : (this.rawOf[id] ?? null);
  }

  /** The id whose bytes {@link guess} gave for `slot`. */
  guessedId(slot: number): number {
    return this.slots[slot] as number;
  }

  /** Notes that key `id` was read at `slot`. */
  remember(slot: number, id: number): void {
    this.slots[slot] = id;
  }

  /** The id of an unescaped key whose raw UTF-8 bytes are `b[start, end)` with FNV-1a hash `hash`. */
  idOfBytes(b: Uint8Array, start: number, end: number, hash: number): number {
    const len = end - start;
    const slot = hash & 1023;
    const hot = this.recent[slot];
    if (hot !== undefined && hot.bytes.length === len) {
      const bytes = hot.bytes;
      let k = 0;
      while (k < len && bytes[k] === b[start + k]) k++;
      if (k === len) return hot.id;
    }
    const id = this.lookup(b, start, end, hash | 0);
    const entry = this.entryOf(b, start, end, hash | 0);
    if (entry !== undefined) this.recent[slot] = entry;
    return id;
  }

  private entryOf(b: Uint8Array, start: number, end: number, hash: number): Entry | undefined {
    const list = this.byHash.get(hash);
    if (list === undefined) return undefined;
    const len = end - start;
    for (const e of list) {
      if (e.bytes.length !== len) continue;
      let k = 0;
      while (k < len && e.bytes[k] === b[start + k]) k++;
      if (k === len) return e;
    }
    return undefined;
  }

  private lookup(b: Uint8Array, start: number, end: number, hash: number): number {
    const list = this.byHash.get(hash);
    const len = end - start;
    if (list !== undefined) {
      for (const e of list) {
        if (e.bytes.length !== len) continue;
        let same = true;
        for (let k = 0; k < len; k++) {
          if (e.bytes[k] !== b[start + k]) {
            same = false;
            break;
          }
        }
        if (same) return e.id;
      }
    }
    const name = Buffer.from(b.buffer, b.byteOffset + start, len).toString('utf8');
    const id = this.idOfString(name);
    const entry = { bytes: Uint8Array.from(b.subarray(start, end)), id };
    this.rawOf[id] ??= entry.bytes;
    if (list === undefined) this.byHash.set(hash, [entry]);
    else list.push(entry);
    return id;
  }

  /** The id of a decoded key. */
  idOfString(name: string): number {
    let id = this.byName.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.byName.set(name, id);
    }
    return id;
  }
}
