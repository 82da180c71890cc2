import { availableParallelism } from 'node:os';
import { open, stat } from 'node:fs/promises';
import type { RolloutTable } from '../rows/rollout-table.js';
import { GymWorkerPool } from './gym-worker-pool.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import { claimRange, markFailed, newRangeClaims } from './range-claims.js';
import { InOrderRangeAppender } from './in-order-range-appender.js';
import { RangeScanner, type ScanRange } from './scan-range.js';
import { appendAll } from '../../util/append-all.js';

/** How {@link loadRolloutFiles} may use threads. */
export interface ParallelScanOptions {
  /**
   * Threads that scan, this one included (default: available parallelism, at most 4); below 2 means
   * sequential, with no worker threads at all. `n` threads are this one and `n - 1` worker threads.
   */
  workers?: number;
  /** Inputs smaller than this many bytes in total are read in this thread (default 32 MiB). */
  minBytes?: number;
  /** Bytes per range claimed by a thread (default: total / (8 × threads), at least 4 MiB). */
  pieceBytes?: number;
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

/**
 * Reads rollout files into `table` (files are `table.files[first + i]`), splitting large inputs into
 * line-aligned byte ranges that this thread and worker threads claim in turn from a shared counter;
 * the ranges' rows are appended in file order, so the table, line numbers, warnings and the first
 * error reported are the same as when reading sequentially. Small inputs, runs that keep per-row
 * extras (hooks, pass@k) and environments where a worker cannot start (e.g. TypeScript sources without
 * a loader) are read in this thread alone. With `keepWorkers`, a large input gets a worker even when
 * this thread scans alone, and the workers are returned running (to write the merged file).
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
): Promise<LoadRolloutFilesResult> {
  const first = table.files.length;
  appendAll(table.files, files);
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  const threads = parallel.workers ?? Math.min(4, availableParallelism());
  const big = total >= (parallel.minBytes ?? 32 << 20);
  const scanThreads = options.keepRows || options.passAtK || !big ? 1 : threads;
  const workerCount = Math.max(scanThreads - 1, keepWorkers && big && threads >= 2 ? 1 : 0);
  const sequential = (): Promise<void> => loadSequentially(files, first, table, options);
  if (workerCount === 0) {
    await sequential();
    return { threads: 0, pool: null };
  }
  // started before the ranges are cut, so that the workers load while this thread begins
  const pool = new GymWorkerPool(workerCount);
  try {
    if (scanThreads < 2) {
      await sequential();
      return { threads: 0, pool };
    }
    return await scanInParallel(
      files,
      first,
      sizes,
      table,
      options,
      parallel,
      scanThreads,
      pool,
      keepWorkers,
    );
  } catch (error) {
    // the workers would keep the process alive
    await pool.close();
    throw error;
  }
}

/** The parallel part of {@link loadRolloutFiles}: ranges claimed by this thread and `pool`'s workers. */
async function scanInParallel(
  files: string[],
  first: number,
  sizes: number[],
  table: RolloutTable,
  options: LoadRolloutFileOptions,
  parallel: ParallelScanOptions,
  scanThreads: number,
  pool: GymWorkerPool,
  keepWorkers: boolean,
): Promise<LoadRolloutFilesResult> {
  const total = sizes.reduce((a, b) => a + b, 0);
  const piece = parallel.pieceBytes ?? Math.max(4 << 20, Math.ceil(total / (scanThreads * 32)));
  const ranges: ScanRange[] = [];
  for (const [i, f] of files.entries()) {
    const size = sizes[i] as number;
    let start = 0;
    while (start < size) {
      const end = start + piece >= size ? size : await nextLineStart(f, start + piece, size);
      ranges.push({ file: i, start, end });
      start = end;
    }
  }
  // Each range's rows are appended as soon as every range before it is in (this thread yields
  // between its own ranges so that the workers' results arrive), so the appending is shared out
  // with the scanning instead of waiting until the last range is done.
  const appender = new InOrderRangeAppender(table, ranges, first, total);
  const claims = newRangeClaims();
  const job = { files, ranges, options, claims: claims.buffer as SharedArrayBuffer };
  const scanned = new Array<boolean>(pool.size).fill(false);
  const workerRuns = Array.from({ length: pool.size }, (_, w) =>
    pool
      .scan(w, job, (id, result) => {
        scanned[w] = true;
        appender.put(id, result);
      })
      // a worker that could not start or died: its claimed range, if any, stays missing
      .catch(() => {}),
  );
  const scanner = new RangeScanner();
  for (let id = claimRange(claims, ranges.length); id >= 0; id = claimRange(claims, ranges.length)) {
    const r = ranges[id] as ScanRange;
    const result = await scanner.scan(files[r.file] as string, r, options, false);
    if (!('table' in result)) markFailed(claims);
    appender.put(id, result);
    // the result's views have been copied into the table unless a range before it is still missing
    if (appender.appended > id) scanner.release();
    // this thread's reads are synchronous: let the workers' results in
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await Promise.all(workerRuns);
  const error = appender.error(files);
  if (error !== null) throw error;
  if (!appender.complete) {
    // a worker died holding a range: read everything again in this thread
    await pool.close();
    table.clearRows();
    await loadSequentially(files, first, table, options);
    return { threads: 0, pool: null };
  }
  if (!keepWorkers) await pool.close();
  // a worker that could not start scanned nothing: this thread then read every range
  return { threads: 1 + scanned.filter(Boolean).length, pool: keepWorkers ? pool : null };
}
