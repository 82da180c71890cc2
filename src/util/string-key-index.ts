/**
 * A `Map` from string keys to non-negative integers (trial keys, trial ids and sealed trace ids to
 * their slots) that refuses any other value.
 *
 * @example
 * const ids = new StringKeyIndex();
 * ids.set('trial-1', 0);
 * ids.get('trial-1'); // 0
 * ids.get('trial-2'); // undefined
 */
export class StringKeyIndex extends Map<string, number> {
  /** Sets `key` to `value` (a non-negative integer up to 2^53). */
  override set(key: string, value: number): this {
    if (!(Number.isSafeInteger(value) && value >= 0))
      throw new RangeError(`StringKeyIndex: value ${value} is not a non-negative integer`);
    return super.set(key, value);
  }
}
