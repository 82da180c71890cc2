import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskValueColumn } from '../summary/task-value-column.js';

/** One task's columns, keyed, in summary order (what `columnarTaskValues.create` takes per task). */
type TaskColumns = readonly (readonly [string, TaskValueColumn])[];

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/**
 * Task value columns kept in a temporary file instead of the heap, one block per task, read back
 * whole when the task is asked for: a summary of tens of millions of task values then holds one
 * task's columns at a time (`summary.json` and `stats.json` are written task by task). The file is
 * removed from its directory as soon as it is open (where the system allows it) and closed once the
 * spill and every loader it handed out are garbage (or by `close()`).
 *
 * Block layout: Int32 header (key count, each key's record count, byte length of the JSON tail), the
 * codes (Int32), padding to 8 bytes, the values (Float64), then JSON `[trialIds, labelsPerKey]`.
 *
 * @example
 * const spill = TaskValueSpill.open();
 * const load = spill.write([['m.score', column]]);
 * load()[0][1].length === column.length; // true
 */
export class TaskValueSpill {
  #position = 0;
  #closed = false;

  private constructor(private readonly fd: number) {}

  /** A new spill file in `dir` (default the system's temporary directory). */
  static open(dir: string = tmpdir()): TaskValueSpill {
    const home = mkdtempSync(join(dir, 'evalstream-task-values-'));
    const file = join(home, 'task-values.bin');
    const fd = openSync(file, 'w+');
    const spill = new TaskValueSpill(fd);
    closer.register(spill, fd, spill);
    try {
      rmSync(home, { recursive: true, force: true });
    } catch {
      // an open file cannot be removed on some systems: it goes with the directory's owner's cleanup
    }
    return spill;
  }

  /** Writes one task's columns (sharing one trial id list) and returns their loader. */
  write(columns: TaskColumns): () => TaskColumns {
    const keys = columns.map(([key]) => key);
    const counts = columns.map(([, column]) => column.length);
    const total = counts.reduce((a, b) => a + b, 0);
    const trialIds = columns[0]?.[1].trialIds ?? [];
    const tail = Buffer.from(JSON.stringify([trialIds, columns.map(([, c]) => c.labels)]), 'utf8');
    const headBytes = 4 * (keys.length + 2);
    const codesAt = headBytes;
    const valuesAt = align8(codesAt + 4 * total);
    const tailAt = valuesAt + 8 * total;
    const block = Buffer.alloc(tailAt + tail.length);
    const head = new Int32Array(block.buffer, block.byteOffset, keys.length + 2);
    head[0] = keys.length;
    for (let k = 0; k < counts.length; k++) head[k + 1] = counts[k] as number;
    head[keys.length + 1] = tail.length;
    const codes = new Int32Array(block.buffer, block.byteOffset + codesAt, total);
    const values = new Float64Array(block.buffer, block.byteOffset + valuesAt, total);
    let at = 0;
    for (const [, column] of columns) {
      codes.set(column.codes, at);
      values.set(column.values, at);
      at += column.length;
    }
    tail.copy(block, tailAt);
    const position = this.#position;
    this.#position += block.length;
    let written = 0;
    while (written < block.length) {
      written += writeSync(this.fd, block, written, block.length - written, position + written);
    }
    return () => this.#read(position, block.length, keys, counts);
  }

  /** Closes the file now (loaders handed out stop working). Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closer.unregister(this);
    closeSync(this.fd);
  }

  #read(position: number, length: number, keys: readonly string[], counts: readonly number[]): TaskColumns {
    // a fresh buffer of its own (not the shared pool): its offset is 0, so the views below are aligned
    const block = Buffer.alloc(length);
    let read = 0;
    while (read < length) read += readSync(this.fd, block, read, length - read, position + read);
    const total = counts.reduce((a, b) => a + b, 0);
    const codesAt = 4 * (keys.length + 2);
    const valuesAt = align8(codesAt + 4 * total);
    const tailAt = valuesAt + 8 * total;
    const codes = new Int32Array(block.buffer, codesAt, total);
    const values = new Float64Array(block.buffer, valuesAt, total);
    const [trialIds, labels] = JSON.parse(block.toString('utf8', tailAt)) as [string[], string[][]];
    const out: [string, TaskValueColumn][] = [];
    let at = 0;
    for (let k = 0; k < keys.length; k++) {
      const n = counts[k] as number;
      const column = new TaskValueColumn(
        trialIds,
        Array.from(codes.subarray(at, at + n)),
        Array.from(values.subarray(at, at + n)),
        labels[k] ?? [],
      );
      out.push([keys[k] as string, column]);
      at += n;
    }
    return out;
  }
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
