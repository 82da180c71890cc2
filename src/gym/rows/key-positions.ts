import { grownTypedArray } from '../../util/grown-typed-array.js';

/**
 * Positions by key id for one object at a time (a row's fields or `rollout_infos` items): `get` and
 * `set` take constant time however many keys the object has (a hostile row of 100k fields must not
 * take quadratic time), and `clear` forgets every position at once by moving to a new generation.
 *
 * @example
 * const at = new KeyPositions(); at.set(7, 0); at.get(7); // 0
 * at.clear(); at.get(7); // -1
 */
export class KeyPositions {
  private at = new Int32Array(64);
  private atGeneration = new Int32Array(64);
  private generation = 1;

  /** The position set for `key` since the last {@link clear}, else -1. */
  get(key: number): number {
    return key < this.at.length && this.atGeneration[key] === this.generation ? (this.at[key] as number) : -1;
  }

  set(key: number, position: number): void {
    if (key >= this.at.length) {
      const n = Math.max(key + 1, this.at.length * 2);
      this.at = grownTypedArray(this.at, n);
      this.atGeneration = grownTypedArray(this.atGeneration, n);
    }
    this.at[key] = position;
    this.atGeneration[key] = this.generation;
  }

  clear(): void {
    this.generation++;
  }
}
