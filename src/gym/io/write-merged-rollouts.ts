import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ROW_NEEDS_MINIFY, type RolloutTable } from '../rows/rollout-table.js';
import { minifyJsonLine } from './minify-json-line.js';

const BLOCK = 4 << 20;
const CACHE_BLOCKS = 16;
const HORIZON = 2048;
const MIN_USES = 4;
/** Block ids are `file * BLOCKS_PER_FILE + block`: files up to 2^42 bytes. */
const BLOCKS_PER_FILE = 2 ** 20;

/** Lower bound of `x` in ascending `a`. */
function lowerBound(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function readFully(fd: number, buf: Buffer, length: number, position: number): number {
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Where each row of a {@link RolloutTable} is in its shard (all that the merge needs). */
export type MergeSource = Pick<RolloutTable, 'files' | 'file' | 'line' | 'offset' | 'length' | 'flags'>;

/**
 * Writes the rows of `table` in `order` to `outPath`, one compact JSON text per line, by reading each
 * row back from its shard (rows are never held in memory). Compact rows are copied byte for byte,
 * others have their inter-token whitespace removed. Reads go through a small block cache that is used
 * only where the order has locality (a block is loaded when at least 4 of its rows come within the
 * next 2048), so a completion-ordered file costs a few large reads and a random order one read per
 * row. Writes to a temporary file renamed over `outPath` at the end, so the output may be an input.
 *
 * @example
 * writeMergedRollouts(table, sortedRows, 'results/rollouts.jsonl');
 */
export function writeMergedRollouts(table: MergeSource, order: Int32Array, outPath: string): void {
  const tmp = join(dirname(outPath), `.${basename(outPath)}.${process.pid}.tmp`);
  const out = openSync(tmp, 'w');
  const inputs = new Map<number, number>();
  try {
    const blockOf = (row: number): number =>
      (table.file[row] as number) * BLOCKS_PER_FILE + Math.floor((table.offset[row] as number) / BLOCK);
    const counts = new Map<number, number>();
    for (let p = 0; p < order.length; p++) {
      const k = blockOf(order[p] as number);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const positions = new Map<number, { at: Int32Array; n: number }>();
    for (const [k, n] of counts) positions.set(k, { at: new Int32Array(n), n: 0 });
    for (let p = 0; p < order.length; p++) {
      const e = positions.get(blockOf(order[p] as number)) as { at: Int32Array; n: number };
      e.at[e.n++] = p;
    }

    const cacheKey: number[] = [];
    const cacheBuf: Buffer[] = [];
    const cacheLen: number[] = [];
    const outBuf = Buffer.allocUnsafe(8 << 20);
    let used = 0;
    const flush = (): void => {
      let w = 0;
      while (w < used) w += writeSync(out, outBuf, w, used - w);
      used = 0;
    };
    const emit = (bytes: Uint8Array, start: number, end: number): void => {
      const len = end - start;
      if (used + len + 1 > outBuf.length) flush();
      if (len + 1 > outBuf.length) {
        writeSync(out, bytes, start, len);
        writeSync(out, '\n');
        return;
      }
      outBuf.set(bytes.subarray(start, end), used);
      used += len;
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
    let single = Buffer.allocUnsafe(1 << 20);

    for (let p = 0; p < order.length; p++) {
      const row = order[p] as number;
      const file = table.file[row] as number;
      const offset = table.offset[row] as number;
      const length = table.length[row] as number;
      const key = blockOf(row);
      const blockStart = Math.floor(offset / BLOCK) * BLOCK;
      const inBlock = offset + length <= blockStart + BLOCK;
      let bytes: Buffer | null = null;
      let start = 0;
      if (inBlock) {
        let slot = cacheKey.indexOf(key);
        if (slot < 0) {
          const pos = (positions.get(key) as { at: Int32Array }).at;
          if (lowerBound(pos, p + HORIZON) - lowerBound(pos, p) >= MIN_USES) {
            if (cacheKey.length < CACHE_BLOCKS) {
              cacheKey.push(key);
              cacheBuf.push(Buffer.allocUnsafe(BLOCK));
              cacheLen.push(0);
              slot = cacheKey.length - 1;
            } else {
              // evict the least recently used (front); move it to the back
              cacheKey.push(cacheKey.shift() as number);
              cacheBuf.push(cacheBuf.shift() as Buffer);
              cacheLen.push(cacheLen.shift() as number);
              slot = cacheKey.length - 1;
              cacheKey[slot] = key;
            }
            cacheLen[slot] = readFully(fdOf(file), cacheBuf[slot] as Buffer, BLOCK, blockStart);
          }
        } else if (slot !== cacheKey.length - 1) {
          cacheKey.push(cacheKey.splice(slot, 1)[0] as number);
          cacheBuf.push(cacheBuf.splice(slot, 1)[0] as Buffer);
          cacheLen.push(cacheLen.splice(slot, 1)[0] as number);
          slot = cacheKey.length - 1;
        }
        if (slot >= 0 && offset - blockStart + length <= (cacheLen[slot] as number)) {
          bytes = cacheBuf[slot] as Buffer;
          start = offset - blockStart;
        }
      }
      if (bytes === null) {
        if (single.length < length) single = Buffer.allocUnsafe(length);
        if (readFully(fdOf(file), single, length, offset) !== length) {
          throw new Error(
            `'${table.files[file]}' changed while it was being merged (line ${table.line[row]})`,
          );
        }
        bytes = single;
        start = 0;
      }
      if ((table.flags[row] as number) & ROW_NEEDS_MINIFY) {
        const compact = minifyJsonLine(bytes, start, start + length);
        emit(compact, 0, compact.length);
      } else emit(bytes, start, start + length);
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
