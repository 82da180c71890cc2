import { grownTypedArray } from '../../util/grown-typed-array.js';

/**
 * A growable list of (key id, kind, value) entries of one JSON object, with Python's duplicate-key
 * rule (first position, last value).
 *
 * @example
 * const f = new FieldList(); f.set(3, VALUE_KIND.int, 7, null);
 */
export class FieldList {
  key = new Int32Array(32);
  kind = new Uint8Array(32);
  value = new Float64Array(32);
  /** Exact values of ints beyond 15 digits, by entry index. */
  big = new Map<number, bigint>();
  count = 0;
  /**
   * Entry index of each key id, valid when its generation is the list's: lookups take constant time
   * however many keys a row has (a hostile row of 100k fields must not take quadratic time).
   */
  private at = new Int32Array(64);
  private atGeneration = new Int32Array(64);
  private generation = 1;

  clear(): void {
    this.count = 0;
    this.generation++;
    if (this.big.size > 0) this.big.clear();
  }

  indexOf(key: number): number {
    return key < this.at.length && this.atGeneration[key] === this.generation ? (this.at[key] as number) : -1;
  }

  /** Sets `key`; a repeated key keeps its first position and takes the last value (Python dicts). */
  set(key: number, kind: number, value: number, big: bigint | null): void {
    let i = this.indexOf(key);
    if (i < 0) {
      if (this.count === this.key.length) this.grow();
      i = this.count++;
      this.key[i] = key;
      if (key >= this.at.length) {
        const n = Math.max(key + 1, this.at.length * 2);
        this.at = grownTypedArray(this.at, n);
        this.atGeneration = grownTypedArray(this.atGeneration, n);
      }
      this.at[key] = i;
      this.atGeneration[key] = this.generation;
    }
    this.kind[i] = kind;
    this.value[i] = value;
    if (big !== null) this.big.set(i, big);
    else if (this.big.size > 0) this.big.delete(i);
  }

  private grow(): void {
    const n = this.key.length * 2;
    this.key = grownTypedArray(this.key, n);
    this.kind = grownTypedArray(this.kind, n);
    this.value = grownTypedArray(this.value, n);
  }
}
