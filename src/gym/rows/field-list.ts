/**
 * A growable list of (key id, kind, value) entries of one JSON object, with Python's duplicate-key
 * rule (first position, last value).
 *
 * @example
 * const f = new FieldList(); f.set(3, VALUE_KIND.int, 7, null, false);
 */
export class FieldList {
  key = new Int32Array(32);
  kind = new Uint8Array(32);
  value = new Float64Array(32);
  /** Exact values of ints beyond 15 digits, by entry index. */
  big = new Map<number, bigint>();
  count = 0;

  clear(): void {
    this.count = 0;
    if (this.big.size > 0) this.big.clear();
  }

  indexOf(key: number): number {
    for (let i = 0; i < this.count; i++) if (this.key[i] === key) return i;
    return -1;
  }

  /** Sets `key`; a repeated key keeps its first position and takes the last value (Python dicts). */
  set(key: number, kind: number, value: number, big: bigint | null, seen: boolean): void {
    let i = seen ? this.indexOf(key) : -1;
    if (i < 0) {
      if (this.count === this.key.length) this.grow();
      i = this.count++;
      this.key[i] = key;
    }
    this.kind[i] = kind;
    this.value[i] = value;
    if (big !== null) this.big.set(i, big);
    else if (this.big.size > 0) this.big.delete(i);
  }

  private grow(): void {
    const n = this.key.length * 2;
    const key = new Int32Array(n);
    key.set(this.key);
    const kind = new Uint8Array(n);
    kind.set(this.kind);
    const value = new Float64Array(n);
    value.set(this.value);
    this.key = key;
    this.kind = kind;
    this.value = value;
  }
}
