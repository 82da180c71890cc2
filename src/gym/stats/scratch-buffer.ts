let buffer = new Float64Array(1024);

/**
 * A reusable Float64Array of at least `n` elements for the statistics' temporary values (its contents
 * are overwritten by the next caller). Keeps per-group statistics free of allocations.
 *
 * @example
 * const tmp = scratchBuffer(values.length).subarray(0, values.length);
 */
export function scratchBuffer(n: number): Float64Array {
  if (buffer.length < n) buffer = new Float64Array(Math.max(n, buffer.length * 2));
  return buffer;
}
