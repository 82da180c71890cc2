/** The typed arrays the columnar stores grow. */
export type GrowableTypedArray = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * A copy of `array` with room for `length` elements (same type; the new elements are zero).
 *
 * @example
 * let ids = new Int32Array(1024);
 * ids = grownTypedArray(ids, ids.length * 2);
 */
export function grownTypedArray<T extends GrowableTypedArray>(array: T, length: number): T {
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array);
  return next;
}
