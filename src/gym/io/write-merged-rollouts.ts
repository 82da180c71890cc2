import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RolloutTable } from '../rows/rollout-table.js';

/** Output buffer size, small on purpose: the kernel copies a buffer that stays in the CPU cache faster. */
const OUT_BYTES = 256 << 10;

/**
 * Largest input span read at once for a window of rows ({@link writeMergedRollouts}): rows in
 * completion order are shuffled only locally, so the rows of a few hundred consecutive tasks lie
 * within a few MB of each other.
 */
const REGION_BYTES = 16 << 20;
/** A window is read as one region only with at least this many rows … */
const REGION_MIN_ROWS = 64;
/** … and when its rows make up at least half of the span. */
const REGION_MIN_FILL = 0.5;

function readFully(fd: number, buf: Uint8Array, at: number, length: number, position: number): number {
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, at + got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Where each row of a {@link RolloutTable} is in its shard (all that the merge needs). */
export type MergeSource = Pick<RolloutTable, 'files' | 'file' | 'line' | 'offset' | 'length'>;

/**
 * Writes the rows of `table` in `order` to `outPath`, one per line with its original bytes (the
 * stripped line), by reading each row back from its shard (rows are never held in memory). When the
 * next rows of the order lie close together in one shard (at least {@link REGION_MIN_ROWS} of them
 * filling half of a span of at most {@link REGION_BYTES}), the span is read at once and the rows
 * copied from it; otherwise each row is read with one positioned read straight into the output buffer
 * (rows that follow each other in both the order and the shard are read together). Writes to a temporary file renamed over `outPath` at the end, so the output may be
 * an input.
 *
 * @example
 * writeMergedRollouts(table, sortedRows, 'results/rollouts.jsonl');
 */
export function writeMergedRollouts(table: MergeSource, order: Int32Array, outPath: string): void {
  const tmp = join(dirname(outPath), `.${basename(outPath)}.${process.pid}.tmp`);
  const out = openSync(tmp, 'w');
  const inputs = new Map<number, number>();
  try {
    let outBuf = Buffer.allocUnsafe(OUT_BYTES);
    let used = 0;
    const flush = (): void => {
      let w = 0;
      while (w < used) w += writeSync(out, outBuf, w, used - w);
      used = 0;
    };
    /** Makes room for `n` more bytes. */
    const room = (n: number): void => {
      if (used + n <= outBuf.length) return;
      flush();
      if (n > outBuf.length) outBuf = Buffer.allocUnsafe(n);
    };
    /** Appends the row `src[at, at + n)` and a newline. */
    const append = (src: Buffer, at: number, n: number): void => {
      room(n + 1);
      src.copy(outBuf, used, at, at + n);
      used += n;
      outBuf[used++] = 10;
    };
    const fdOf = (file: number): number => {
      let fd = inputs.get(file);
      if (fd === undefined) {
        fd = openSync(table.files[file] as string, 'r');
        inputs.set(file, fd);
      }
      return fd;
    };
    const changed = (row: number): Error =>
      new Error(
        `'${table.files[table.file[row] as number]}' changed while it was being merged (line ${table.line[row]})`,
      );
    let region: Buffer | null = null;
    /** Rows before this position of the order are not tried as a region again. */
    let noRegionUntil = 0;

    for (let p = 0; p < order.length;) {
      const row = order[p] as number;
      const file = table.file[row] as number;
      const offset = table.offset[row] as number;
      const length = table.length[row] as number;
      if (p >= noRegionUntil) {
        // the longest window of rows from this file within REGION_BYTES of each other
        let lo = offset;
        let hi = offset + length;
        let filled = length;
        let q = p + 1;
        while (q < order.length) {
          const next = order[q] as number;
          if (table.file[next] !== file) break;
          const o = table.offset[next] as number;
          const e = o + (table.length[next] as number);
          const nlo = o < lo ? o : lo;
          const nhi = e > hi ? e : hi;
          if (nhi - nlo > REGION_BYTES) break;
          lo = nlo;
          hi = nhi;
          filled += e - o;
          q++;
        }
        if (q - p < REGION_MIN_ROWS || filled < REGION_MIN_FILL * (hi - lo)) noRegionUntil = q;
        else {
          region ??= Buffer.allocUnsafe(REGION_BYTES);
          const got = readFully(fdOf(file), region, 0, hi - lo, lo);
          for (; p < q; p++) {
            const r = order[p] as number;
            const at = (table.offset[r] as number) - lo;
            const n = table.length[r] as number;
            if (at + n > got) throw changed(r);
            append(region, at, n);
          }
          continue;
        }
      }
      // a run of rows that are consecutive lines of the shard, each followed by exactly "\n"
      let q = p + 1;
      let runEnd = offset + length;
      while (q < order.length) {
        const next = order[q] as number;
        if (
          table.file[next] !== file ||
          table.offset[next] !== runEnd + 1 ||
          runEnd + 1 + (table.length[next] as number) - offset + 1 > OUT_BYTES
        )
          break;
        runEnd += 1 + (table.length[next] as number);
        q++;
      }
      const bytes = runEnd - offset;
      room(bytes + 1);
      if (readFully(fdOf(file), outBuf, used, bytes, offset) !== bytes) throw changed(row);
      if (q - p > 1) {
        // the separators read with the run must be the single "\n" the table implies
        let at = offset + length;
        for (let k = p + 1; k < q; k++) {
          if (outBuf[used + at - offset] !== 10) throw changed(order[k] as number);
          at += 1 + (table.length[order[k] as number] as number);
        }
      }
      used += bytes;
      outBuf[used++] = 10;
      p = q;
    }
    flush();
    closeSync(out);
    renameSync(tmp, outPath);
  } catch (error) {
    try {
      closeSync(out);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw error;
  } finally {
    for (const fd of inputs.values()) closeSync(fd);
  }
}
