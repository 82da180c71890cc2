import { availableParallelism } from 'node:os';
import { open, stat } from 'node:fs/promises';
import { GymInputError } from '../gym-input-error.js';
import { createGymKeys } from '../rows/gym-keys.js';
import { RolloutTable } from '../rows/rollout-table.js';
import { GymWorkerPool, type ScanRangeResult } from './gym-worker-pool.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import { rolloutLineError, type RolloutLineErrorParts } from './rollout-line-error.js';

/** How {@link loadRolloutFiles} may use threads. */
export interface ParallelScanOptions {
  /**
   * Threads that scan, this one included (default: available parallelism, at most 4, but 1 on a
   * machine with 2 or fewer: there a worker only contends with this thread, see docs/gym.md); below 2
   * means sequential. `n` threads are this one and `n - 1` worker threads.
   */
  workers?: number;
  /** Inputs smaller than this many bytes in total are read in this thread (default 32 MiB). */
  minBytes?: number;
  /** Bytes per range handed to a thread (default: total / (8 × threads), at least 4 MiB). */
  pieceBytes?: number;
}

/** What {@link loadRolloutFiles} did. */
export interface LoadRolloutFilesResult {
  /** Threads that read the inputs (0: read sequentially in this thread). */
  threads: number;
  /** The worker threads, still running when `keepWorkers` was asked for (else null). */
  pool: GymWorkerPool | null;
}

interface Range {
  file: number;
  start: number;
  end: number;
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

/** Scans one range in this thread, with the same result shape as a worker's. */
async function scanHere(path: string, r: Range, options: LoadRolloutFileOptions): Promise<ScanRangeResult> {
  const part = new RolloutTable(createGymKeys());
  try {
    const { lines } = await loadRolloutFile(path, 0, part, options, {
      start: r.start,
      end: r.end,
      firstLine: 1,
    });
    return { lines, table: part.toTransfer() };
  } catch (error) {
    const parts = (error as { parts?: RolloutLineErrorParts }).parts;
    return { parts: parts ?? null, message: (error as Error).message ?? String(error) };
  }
}

/**
 * Reads rollout files into `table` (files are `table.files[first + i]`), splitting large inputs into
 * line-aligned byte ranges that this thread and worker threads take in turn; the ranges' rows are
 * appended in file order, so the table, line numbers, warnings and the first error reported are the
 * same as when reading sequentially. Small inputs, runs that keep per-row extras (hooks, pass@k) and
 * environments where a worker cannot start (e.g. TypeScript sources without a loader) are read in this
 * thread alone. With `keepWorkers` the workers are returned running (e.g. to write the merged file).
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
  table.files.push(...files);
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  const cores = availableParallelism();
  const threads = parallel.workers ?? (cores > 2 ? Math.min(4, cores) : 1);
  const sequential = async (): Promise<LoadRolloutFilesResult> => {
    for (const [i, f] of files.entries()) await loadRolloutFile(f, first + i, table, options);
    return { threads: 0, pool: null };
  };
  if (options.keepRows || options.passAtK || threads < 2 || total < (parallel.minBytes ?? 32 << 20)) {
    return sequential();
  }
  const pool = new GymWorkerPool(threads - 1);
  const piece = parallel.pieceBytes ?? Math.max(4 << 20, Math.ceil(total / (threads * 8)));
  const ranges: Range[] = [];
  for (const [i, f] of files.entries()) {
    const size = sizes[i] as number;
    let start = 0;
    while (start < size) {
      const end = start + piece >= size ? size : await nextLineStart(f, start + piece, size);
      ranges.push({ file: i, start, end });
      start = end;
    }
  }
  const results: ScanRangeResult[] = new Array<ScanRangeResult>(ranges.length);
  let next = 0;
  let workerFailed = false;
  const take = async (scan: (r: Range) => Promise<ScanRangeResult>, here: boolean): Promise<void> => {
    while (next < ranges.length && !workerFailed) {
      const id = next++;
      results[id] = await scan(ranges[id] as Range);
      // A range scanned here never waits for I/O (reads are synchronous): let the event loop deliver
      // the workers' results so that they can take the next ranges meanwhile.
      if (here) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  try {
    await Promise.all([
      take((r) => scanHere(files[r.file] as string, r, options), true),
      ...Array.from({ length: pool.size }, (_, w) =>
        take(
          (r) => pool.scan(w, { path: files[r.file] as string, start: r.start, end: r.end, options }),
          false,
        ).catch(() => {
          workerFailed = true;
        }),
      ),
    ]);
  } catch (error) {
    await pool.close();
    throw error;
  }
  if (workerFailed) {
    await pool.close();
    return sequential();
  }
  if (!keepWorkers) await pool.close();
  let linesBefore = 0;
  let lastFile = -1;
  for (const [k, r] of ranges.entries()) {
    if (r.file !== lastFile) {
      linesBefore = 0;
      lastFile = r.file;
    }
    const res = results[k] as ScanRangeResult;
    if (!('table' in res)) {
      if (keepWorkers) await pool.close();
      if (res.parts === null)
        throw new GymInputError('unreadable', `Cannot read shard '${files[r.file]}': ${res.message}`);
      throw rolloutLineError({ ...res.parts, line: res.parts.line + linesBefore });
    }
    table.appendTransfer(res.table, first + r.file, linesBefore);
    linesBefore += res.lines;
  }
  return { threads: Math.min(threads, ranges.length), pool: keepWorkers ? pool : null };
}
