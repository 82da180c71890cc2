import { grownTypedArray } from '../../util/grown-typed-array.js';
import { KeyPositions } from './key-positions.js';

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
  /** Entry index of each key id. */
  private readonly at = new KeyPositions();

  clear(): void {
    this.count = 0;
    this.at.clear();
    if (this.big.size > 0) this.big.clear();
  }

  indexOf(key: number): number {
    return this.at.get(key);
  }

  /** Sets `key`; a repeated key keeps its first position and takes the last value (Python dicts). */
  set(key: number, kind: number, value: number, big: bigint | null): void {
    let i = this.indexOf(key);
    if (i < 0) {
      if (this.count === this.key.length) this.grow();
      i = this.count++;
      this.key[i] = key;
      this.at.set(key, i);
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
