import { availableParallelism } from 'node:os';
import { open, stat } from 'node:fs/promises';
import type { RolloutTable, RolloutTableTransfer } from '../rows/rollout-table.js';
import { GymWorkerPool } from './gym-worker-pool.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import { rolloutLineError } from './rollout-line-error.js';
import { scanClaimedRanges } from './scan-claimed-ranges.js';
import { scanRolloutRange, type ScanRange, type ScanRangeResult } from './scan-rollout-range.js';
import { appendAll } from '../../util/append-all.js';

/** How {@link loadRolloutFiles} may use threads. */
export interface ParallelScanOptions {
  /**
   * Threads that read, this one included (default: available parallelism, at most 4); below 2 means
   * sequential, with no worker threads at all. `n` threads are this one and `n - 1` worker threads.
   */
  workers?: number;
  /** Inputs smaller than this many bytes in total are read in this thread (default 32 MiB). */
  minBytes?: number;
  /**
   * Size of the line-aligned byte ranges that threads take one after the other (default 8 MiB): a
   * thread that is slower (or starts later) takes fewer of them.
   */
  rangeBytes?: number;
}

/** What {@link loadRolloutFiles} did. */
export interface LoadRolloutFilesResult {
  /**
   * Threads that read ranges of the inputs, this one included (0: read sequentially in this thread;
   * 1: split into ranges, but no worker read one).
   */
  threads: number;
  /** The worker threads, still running when `keepWorkers` was asked for (else null). */
  pool: GymWorkerPool | null;
}

/** Reads the files one after the other in this thread (their table indices start at `first`). */
async function loadSequentially(
  files: string[],
  first: number,
  table: RolloutTable,
  options: LoadRolloutFileOptions,
): Promise<void> {
  for (const [i, f] of files.entries()) await loadRolloutFile(f, first + i, table, options);
}

/** Offset just after the first `\n` at or after `from` (or the file size). */
async function nextLineStart(path: string, from: number, size: number): Promise<number> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 16);
    for (let pos = from; pos < size; pos += buf.length) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      const nl = buf.subarray(0, bytesRead).indexOf(10);
      if (nl >= 0) return pos + nl + 1;
    }
    return size;
  } finally {
    await fh.close();
  }
}

/** Splits the inputs into line-aligned ranges of at most about `rangeBytes` bytes, in file order. */
async function splitIntoRanges(files: string[], sizes: number[], rangeBytes: number): Promise<ScanRange[]> {
  const out: ScanRange[] = [];
  for (const [i, f] of files.entries()) {
    const size = sizes[i] as number;
    // ranges of about equal size, none over rangeBytes (unless a line is longer)
    const step = Math.ceil(size / Math.max(1, Math.ceil(size / rangeBytes)));
    let start = 0;
    while (start < size) {
      const end = start + step >= size ? size : await nextLineStart(f, start + step, size);
      out.push({ file: i, start, end });
      start = end;
    }
  }
  return out;
}

/**
 * Reads rollout files into `table` (files are `table.files[first + i]`). Large inputs are split into
 * line-aligned byte ranges that the threads (this one and worker threads) claim one at a time from a
 * shared counter, so that a thread that starts later or runs slower reads fewer; the ranges' rows
 * are then appended in file order, so the table, line numbers, warnings and the first error reported
 * are the same as when reading sequentially. Small inputs, runs that keep per-row extras (hooks,
 * pass@k) and environments where a worker cannot start are read in this thread. With `keepWorkers`, a
 * large input gets a worker even when this thread reads alone, and the workers are returned running
 * (to write the merged file). `onRows` is called (with those workers) as soon as every row's own columns
 * (source, indices, agent) are in `table`, before their values are appended, so that work that needs
 * only the rows (sorting them, writing the merged file) can start.
 *
 * @example
 * const { threads } = await loadRolloutFiles(['a.jsonl', 'b.jsonl'], table, { cut: true });
 */
export async function loadRolloutFiles(
  files: string[],
  table: RolloutTable,
  options: LoadRolloutFileOptions,
  parallel: ParallelScanOptions = {},
  keepWorkers = false,
  onRows?: (pool: GymWorkerPool | null) => void,
): Promise<LoadRolloutFilesResult> {
  const first = table.files.length;
  appendAll(table.files, files);
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  const threads = parallel.workers ?? Math.min(4, availableParallelism());
  const big = total > 0 && total >= (parallel.minBytes ?? 32 << 20);
  const scanThreads = options.keepRows || options.passAtK || !big ? 1 : threads;
  const workerCount = Math.max(scanThreads - 1, keepWorkers && big && threads >= 2 ? 1 : 0);
  if (workerCount === 0) {
    await loadSequentially(files, first, table, options);
    onRows?.(null);
    return { threads: 0, pool: null };
  }
  // started first, so that the workers load their code while the ranges are cut
  const pool = new GymWorkerPool(workerCount);
  try {
    if (scanThreads < 2) {
      await loadSequentially(files, first, table, options);
      onRows?.(pool);
      return { threads: 0, pool };
    }
    const ranges = await splitIntoRanges(files, sizes, parallel.rangeBytes ?? 8 << 20);
    const next = new Int32Array(new SharedArrayBuffer(4));
    const inWorkers = Array.from({ length: scanThreads - 1 }, (_, w) =>
      pool.scan(w, { files, ranges, next, options }).catch(() => null),
    );
    const results: (ScanRangeResult | undefined)[] = new Array(ranges.length);
    for (const [i, result] of await scanClaimedRanges({ files, ranges, next, options })) results[i] = result;
    let threadsUsed = 1;
    for (const got of await Promise.all(inWorkers)) {
      if (got === null) continue;
      if (got.length > 0) threadsUsed++;
      for (const [i, result] of got) results[i] = result;
    }
    // the ranges of a worker that could not start or died are read here, up to the first error
    for (const [i, r] of ranges.entries()) {
      let result = results[i];
      if (result === undefined) {
        result = await scanRolloutRange(files[r.file] as string, r, options);
        results[i] = result;
      }
      if (!('table' in result)) break;
    }
    let rows = table.count;
    for (const result of results) {
      if (result === undefined || !('table' in result)) break;
      rows += result.table.count;
    }
    table.reserve(rows, 0, 0);
    appendInOrder(table, first, ranges, results, () => onRows?.(keepWorkers ? pool : null));
    if (!keepWorkers) await pool.close();
    return { threads: threadsUsed, pool: keepWorkers ? pool : null };
  } catch (error) {
    // the workers would keep the process alive
    await pool.close();
    throw error;
  }
}

/**
 * Appends the ranges' rows in file order, their values left where the ranges' tables hold them
 * (their key ids made the table's after `onRows`); throws the first error in file order, with its
 * line in the file.
 */
function appendInOrder(
  table: RolloutTable,
  first: number,
  ranges: ScanRange[],
  results: (ScanRangeResult | undefined)[],
  onRows: () => void,
): void {
  let file = -1;
  let lineOffset = 0;
  const rowBases: number[] = [];
  for (const [k, r] of ranges.entries()) {
    const result = results[k];
    // after the first error no range is read
    if (result === undefined) throw new Error(`range ${k} of the inputs was not read`);
    if (r.file !== file) {
      file = r.file;
      lineOffset = 0;
    }
    if (!('table' in result)) {
      if (result.parts === null) throw new Error(result.message);
      throw rolloutLineError({ ...result.parts, line: result.parts.line + lineOffset });
    }
    rowBases.push(table.count);
    table.appendPartRows(result.table, first + r.file, lineOffset);
    lineOffset += result.lines;
  }
  onRows();
  for (const [k, rowBase] of rowBases.entries()) {
    table.adoptPartValues((results[k] as { table: RolloutTableTransfer }).table, rowBase);
  }
}
