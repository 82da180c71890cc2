import { createGymKeys } from '../rows/gym-keys.js';
import { RolloutTable } from '../rows/rollout-table.js';
import type { RolloutTableTransfer } from '../rows/rollout-table-transfer.js';
import type { ReadBufferHolder } from './for-each-jsonl-line.js';
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
 * Scans byte ranges one after the other in one thread, keeping what can be kept between them: the
 * range table (cleared, with its room and its interned keys), and the read buffer. On this kind of
 * machine first touching fresh memory costs more than the copies a range needs (a 4 KiB page fault
 * took ~10 µs on the 2-core VM), and a new table per range grew its columns twice and a new read
 * buffer per range made a new WebAssembly memory each time.
 *
 * With `copy`, a result's arrays are trimmed copies (to transfer to another thread) and the table is
 * reused at once. Without it they are views of the table, which is then lent out until
 * {@link release}: a scan before that uses a new table (the lent one stays valid).
 *
 * @example
 * const scanner = new RangeScanner();
 * const r = await scanner.scan('rollouts.jsonl', { file: 0, start: 0, end: 1 << 20 }, { cut: true });
 */
export class RangeScanner {
  private table: RolloutTable | null = null;
  private lent = false;
  private readonly reader: ReadBufferHolder = { buffer: null };

  /**
   * Scans range `r` of `path` into the kept table, lines counted from the range's start; errors are
   * returned as data so that any thread can report them with the line number in the whole file.
   */
  async scan(
    path: string,
    r: ScanRange,
    options: LoadRolloutFileOptions,
    copy = true,
  ): Promise<ScanRangeResult> {
    if (this.table === null || this.lent) {
      this.table = new RolloutTable(createGymKeys());
      this.lent = false;
    } else this.table.clearRows();
    const part = this.table;
    try {
      const { lines } = await loadRolloutFile(
        path,
        0,
        part,
        options,
        { start: r.start, end: r.end, firstLine: 1 },
        this.reader,
      );
      this.lent = !copy;
      return { lines, table: part.toTransfer(copy) };
    } catch (error) {
      const parts = (error as { parts?: RolloutLineErrorParts }).parts;
      return { parts: parts ?? null, message: (error as Error).message ?? String(error) };
    }
  }

  /** The views of the last result scanned without `copy` are no longer used: its table is reused. */
  release(): void {
    this.lent = false;
  }
}
