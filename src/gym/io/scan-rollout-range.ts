import { RolloutTable, type RolloutTableTransfer } from '../rows/rollout-table.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import type { RolloutLineErrorParts } from './rollout-line-error.js';

/** A line-aligned byte range `[start, end)` of input `file` (an index into the scan's file list). */
export interface ScanRange {
  file: number;
  start: number;
  end: number;
}

/** What reading one byte range gave: its rows and line count, or the parts of its first error. */
export type ScanRangeResult =
  { lines: number; table: RolloutTableTransfer } | { parts: RolloutLineErrorParts | null; message: string };

/**
 * Reads the byte range `range` of `path` into a table of its own, lines counted from the range's
 * start; an error is returned as data, so that the thread that puts the ranges together reports it
 * with its line number in the whole file. The result's arrays are views whose buffers can be
 * transferred to another thread.
 *
 * @example
 * const r = await scanRolloutRange('rollouts.jsonl', { file: 0, start: 0, end: 1 << 20 }, { cut: true });
 */
export async function scanRolloutRange(
  path: string,
  range: ScanRange,
  options: LoadRolloutFileOptions,
): Promise<ScanRangeResult> {
  const table = new RolloutTable();
  try {
    const { lines } = await loadRolloutFile(path, 0, table, options, range);
    return { lines, table: table.toTransfer() };
  } catch (error) {
    const parts = (error as { parts?: RolloutLineErrorParts }).parts;
    return { parts: parts ?? null, message: (error as Error).message ?? String(error) };
  }
}
