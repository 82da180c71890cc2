import { availableParallelism } from 'node:os';
import { open, stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { GymInputError } from '../gym-input-error.js';
import type { RolloutTable } from '../rows/rollout-table.js';
import type { RolloutTableTransfer } from '../rows/rollout-table-transfer.js';
import { loadRolloutFile, type LoadRolloutFileOptions } from './load-rollout-file.js';
import { rolloutLineError, type RolloutLineErrorParts } from './rollout-line-error.js';

/** How {@link loadRolloutFiles} may use worker threads. */
export interface ParallelScanOptions {
  /** Worker threads (default: available parallelism, at most 4; below 2 means sequential). */
  workers?: number;
  /** Inputs smaller than this many bytes in total are read in this thread (default 32 MiB). */
  minBytes?: number;
  /** Bytes per range handed to a worker (default: total / (4 × workers), at least 1 MiB). */
  pieceBytes?: number;
}

interface Range {
  file: number;
  start: number;
  end: number;
}

type Result =
  { lines: number; table: RolloutTableTransfer } | { parts: RolloutLineErrorParts | null; message: string };

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
 * Starts a scan worker. Built code runs `scan-rollouts-worker.js`; TypeScript sources (run through
 * tsx, e.g. tests and benchmarks) need tsx registered inside the worker first, as loader hooks are
 * per thread.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./scan-rollouts-worker.js', import.meta.url));
  const script = new URL('./scan-rollouts-worker.ts', import.meta.url).href;
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(script)}); });`;
  return new Worker(code, { eval: true });
}

/** Runs the ranges on a pool of workers; rejects (with a non-input error) when a worker cannot run. */
async function runPool(
  files: string[],
  ranges: Range[],
  options: LoadRolloutFileOptions,
  count: number,
): Promise<Result[]> {
  const results: Result[] = new Array<Result>(ranges.length);
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let done = 0;
      const feed = (w: Worker): void => {
        if (next >= ranges.length) return;
        const id = next++;
        const r = ranges[id] as Range;
        w.postMessage({ id, path: files[r.file], start: r.start, end: r.end, options });
      };
      for (let i = 0; i < Math.min(count, ranges.length); i++) {
        const w = startWorker();
        workers.push(w);
        w.on('error', reject);
        w.on('exit', (code) => {
          if (done < ranges.length) reject(new Error(`scan worker exited with code ${code}`));
        });
        w.on('message', (m: ({ id: number } & Result) | { ready: true }) => {
          if ('ready' in m) {
            feed(w);
            return;
          }
          results[m.id] = m;
          done++;
          if (done === ranges.length) resolve();
          else feed(w);
        });
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}

/**
 * Reads rollout files into `table` (files are `table.files[first + i]`), splitting large inputs into
 * line-aligned byte ranges scanned by worker threads and appended in file order, so the table, line
 * numbers, warnings and the first error reported are the same as when reading sequentially. Small
 * inputs, runs that keep per-row extras (hooks, pass@k) and environments where a worker cannot start
 * (e.g. TypeScript sources without a loader) are read in this thread. Resolves to the number of
 * workers used (0: read in this thread).
 *
 * @example
 * await loadRolloutFiles(['a.jsonl', 'b.jsonl'], table, { cut: true });
 */
export async function loadRolloutFiles(
  files: string[],
  table: RolloutTable,
  options: LoadRolloutFileOptions,
  parallel: ParallelScanOptions = {},
): Promise<number> {
  const first = table.files.length;
  table.files.push(...files);
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  const workers = parallel.workers ?? Math.min(4, availableParallelism());
  const sequential = async (): Promise<number> => {
    for (const [i, f] of files.entries()) await loadRolloutFile(f, first + i, table, options);
    return 0;
  };
  if (options.keepRows || options.passAtK || workers < 2 || total < (parallel.minBytes ?? 32 << 20)) {
    return sequential();
  }
  const piece = parallel.pieceBytes ?? Math.max(1 << 20, Math.ceil(total / (workers * 4)));
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
  let results: Result[];
  try {
    results = await runPool(files, ranges, options, workers);
  } catch {
    return sequential();
  }
  let linesBefore = 0;
  let lastFile = -1;
  for (const [k, r] of ranges.entries()) {
    if (r.file !== lastFile) {
      linesBefore = 0;
      lastFile = r.file;
    }
    const res = results[k] as Result;
    if (!('table' in res)) {
      if (res.parts === null)
        throw new GymInputError('unreadable', `Cannot read shard '${files[r.file]}': ${res.message}`);
      throw rolloutLineError({ ...res.parts, line: res.parts.line + linesBefore });
    }
    table.appendTransfer(res.table, first + r.file, linesBefore);
    linesBefore += res.lines;
  }
  return Math.min(workers, ranges.length);
}
