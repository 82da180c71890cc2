/**
 * Work sharing for a scan over threads: an `Int32Array` on a `SharedArrayBuffer` holding the next
 * unclaimed range (slot 0) and a failure flag (slot 1). Every thread claims ranges itself, so none
 * waits for another to hand out work, and ranges are claimed in order: when a range fails, every
 * range before it has been claimed and will be finished.
 */

/** A fresh claim counter. */
export function newRangeClaims(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

/** The next range to scan, or -1 when none is left or a thread has failed. */
export function claimRange(claims: Int32Array, count: number): number {
  if (Atomics.load(claims, 1) !== 0) return -1;
  const id = Atomics.add(claims, 0, 1);
  return id < count ? id : -1;
}

/** Stops further claims (a range failed; later ranges are not needed). */
export function markFailed(claims: Int32Array): void {
  Atomics.store(claims, 1, 1);
}
