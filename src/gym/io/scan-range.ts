import { createGymKeys } from '../rows/gym-keys.js';
import { RolloutTable } from '../rows/rollout-table.js';
import type { RolloutTableTransfer } from '../rows/rollout-table-transfer.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import type { RolloutLineErrorParts } from './rollout-line-error.js';

/** A line-aligned byte range `[start, end)` of input `file` (an index into the scan's file list). */
export interface ScanRange {
  file: number;
  start: number;
  end: number;
}

/** What scanning one byte range gave: its rows and line count, or the parts of its first error. */
export type ScanRangeResult =
  { lines: number; table: RolloutTableTransfer } | { parts: RolloutLineErrorParts | null; message: string };

/**
 * Scans one byte range of `path` into a table of its own, with lines counted from the range's start;
 * errors are returned as data so any thread can report them with the line number in the whole file.
 * The table's arrays are trimmed copies that can be transferred to another thread, or with `copy`
 * false views for this thread.
 *
 * @example
 * const r = await scanRange('rollouts.jsonl', { file: 0, start: 0, end: 1 << 20 }, { cut: true });
 */
export async function scanRange(
  path: string,
  r: ScanRange,
  options: LoadRolloutFileOptions,
  copy = true,
): Promise<ScanRangeResult> {
  const part = new RolloutTable(createGymKeys());
  try {
    const { lines } = await loadRolloutFile(path, 0, part, options, {
      start: r.start,
      end: r.end,
      firstLine: 1,
    });
    return { lines, table: part.toTransfer(copy) };
  } catch (error) {
    const parts = (error as { parts?: RolloutLineErrorParts }).parts;
    return { parts: parts ?? null, message: (error as Error).message ?? String(error) };
  }
}
