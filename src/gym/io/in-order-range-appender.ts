import { GymInputError } from '../gym-input-error.js';
import { RolloutTable } from '../rows/rollout-table.js';
import type { RolloutTableTransfer } from '../rows/rollout-table-transfer.js';
import { rolloutLineError } from './rollout-line-error.js';
import type { ScanRange, ScanRangeResult } from './scan-range.js';

/** The most the first range's estimate reserves in the table (the 200k-rollout bench needs ~60 MB). */
export const RESERVE_MAX_BYTES = 256 << 20;

/**
 * Appends the results of a ranged scan to a table in file order while they arrive in any order: each
 * range's rows go in as soon as every range before it is in, with its line numbers shifted by the
 * lines of the earlier ranges of the same file. The first result appended also reserves the table's
 * room for the whole input (estimated from that range, 5 % to spare, at most
 * {@link RESERVE_MAX_BYTES}), so that appending does not copy the columns again and again. A failed range stops the appending; {@link error} then rebuilds
 * its error with the line number in the whole file.
 *
 * @example
 * const appender = new InOrderRangeAppender(table, ranges, 0, totalBytes);
 * appender.put(1, resultOfRange1); // waits for range 0
 * appender.put(0, resultOfRange0); // appends ranges 0 and 1
 */
export class InOrderRangeAppender {
  private readonly results: (ScanRangeResult | null | undefined)[];
  /** Ranges appended so far (a prefix of the ranges). */
  appended = 0;
  private linesBefore = 0;
  private lastFile = -1;
  private failed = false;

  /**
   * @param first the table's index of the scan's first file (range `file` indices are relative to it)
   * @param totalBytes the bytes of every range together
   */
  constructor(
    private readonly table: RolloutTable,
    private readonly ranges: readonly ScanRange[],
    private readonly first: number,
    private readonly totalBytes: number,
  ) {
    this.results = new Array<ScanRangeResult | null | undefined>(ranges.length);
  }

  /** Whether every range has been appended. */
  get complete(): boolean {
    return this.appended === this.ranges.length;
  }

  /** Takes range `id`'s result and appends every range that is now next in order. */
  put(id: number, result: ScanRangeResult): void {
    this.results[id] = result;
    while (!this.failed && this.appended < this.ranges.length) {
      const res = this.results[this.appended];
      if (res === undefined || res === null) return;
      if (!('table' in res)) {
        this.failed = true;
        return;
      }
      const r = this.ranges[this.appended] as ScanRange;
      if (r.file !== this.lastFile) {
        this.linesBefore = 0;
        this.lastFile = r.file;
      }
      if (this.appended === 0) this.reserve(res.table, r.end - r.start);
      this.table.appendTransfer(res.table, this.first + r.file, this.linesBefore);
      this.linesBefore += res.lines;
      this.results[this.appended] = null; // the rows are in the table now
      this.appended++;
    }
  }

  /**
   * The error of the first failed range when every range before it has been appended (null
   * otherwise), with the line number in the whole file.
   *
   * @param files the scan's file paths (for an unreadable shard's message)
   */
  error(files: readonly string[]): GymInputError | null {
    if (!this.failed) return null;
    const r = this.ranges[this.appended] as ScanRange;
    const res = this.results[this.appended] as Exclude<ScanRangeResult, { table: unknown }>;
    if (res.parts === null)
      return new GymInputError('unreadable', `Cannot read shard '${files[r.file]}': ${res.message}`);
    const before = r.file === this.lastFile ? this.linesBefore : 0;
    return rolloutLineError({ ...res.parts, line: res.parts.line + before });
  }

  private reserve(part: RolloutTableTransfer, bytes: number): void {
    if (bytes <= 0) return;
    // an input whose first range is unlike the rest (e.g. short rows first) could make the estimate
    // far too large: at most RESERVE_MAX_BYTES are reserved, the rest grows as rows come
    const estimate = (1.05 * this.totalBytes) / bytes;
    const footprint = RolloutTable.bytesFor(part.count, part.statKey.length, part.infoKey.length);
    const scale = footprint * estimate > RESERVE_MAX_BYTES ? RESERVE_MAX_BYTES / footprint : estimate;
    this.table.reserve(
      Math.ceil(part.count * scale),
      Math.ceil(part.statKey.length * scale),
      Math.ceil(part.infoKey.length * scale),
    );
  }
}
