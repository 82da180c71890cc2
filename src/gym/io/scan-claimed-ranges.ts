import type { LoadRolloutFileOptions } from './load-rollout-file.js';
import { scanRolloutRange, type ScanRange, type ScanRangeResult } from './scan-rollout-range.js';

/** Byte ranges of the inputs that several threads read, each range claimed once from `next`. */
export interface ClaimedScanJob {
  files: string[];
  ranges: ScanRange[];
  /** Shared counter (one element): the index of the next range to claim. */
  next: Int32Array;
  options: LoadRolloutFileOptions;
}

/**
 * Reads the ranges of `job` whose index this thread claims from the shared counter (one at a time,
 * until none is left), each through {@link scanRolloutRange}: `[index, result]` pairs. After a range
 * that failed no thread claims another one; every earlier range is already claimed, so the first
 * error in file order is among the results of all threads.
 *
 * @example
 * const next = new Int32Array(new SharedArrayBuffer(4));
 * const mine = await scanClaimedRanges({ files, ranges, next, options: { cut: true } });
 */
export async function scanClaimedRanges(job: ClaimedScanJob): Promise<[number, ScanRangeResult][]> {
  const { files, ranges, next, options } = job;
  const out: [number, ScanRangeResult][] = [];
  for (let i = Atomics.add(next, 0, 1); i < ranges.length; i = Atomics.add(next, 0, 1)) {
    const r = ranges[i] as ScanRange;
    const result = await scanRolloutRange(files[r.file] as string, r, options);
    out.push([i, result]);
    if (!('table' in result)) {
      Atomics.store(next, 0, ranges.length);
      break;
    }
  }
  return out;
}
