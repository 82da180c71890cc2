/**
 * Detaches one empty `ArrayBuffer` (by transferring it), so that V8's "array buffer detaching"
 * protector is already given up before any hot code is optimized. Once per thread is enough (the
 * protector is per isolate and never comes back); calling it again only detaches another buffer.
 *
 * Optimized code that reads typed arrays leaves out the "is this buffer detached?" check for as long
 * as no buffer in the isolate has ever been detached, and depends on that. The first real transfer
 * (a worker posting a scanned range's columns, the main thread handing the merge its columns) then
 * throws away every such function at once and V8 compiles them all again: ~25 functions of the row
 * scan in the worker after its first range, the statistics' in the main thread. Calling this where a
 * thread will transfer buffers, before it scans, costs the check (a load and a branch) instead.
 *
 * @example
 * giveUpDetachProtector(); // at the start of a worker that will post transferred buffers
 */
export function giveUpDetachProtector(): void {
  structuredClone(null, { transfer: [new ArrayBuffer(0)] });
}
