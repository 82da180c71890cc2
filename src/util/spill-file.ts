import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writevSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Appended records are written to the file once this many bytes wait. */
const FLUSH_BYTES = 1 << 20;
/** Bytes read at once when reading back. */
const READ_BYTES = 1 << 20;

/**
 * An append-only file of records (byte strings), read back by offset: for what a run keeps per trial
 * until its end and reads once or rarely (`serve`'s kept trials), which on the heap would grow it and every collection with the number of trials. The file is made in the
 * system's temporary directory (`TMPDIR`) and unlinked at once: it takes disk space while the
 * process holds it, and none after the process ends, however it ends.
 *
 * @example
 * const file = new SpillFile();
 * const at = file.append(Buffer.from('record'));
 * file.read(at, 6).toString(); // 'record'
 */
export class SpillFile {
  /** The open file (null: not yet made, or closed); closed when this object is collected unclosed. */
  readonly #held: { fd: number | null } = { fd: null };
  /** Bytes in the file. */
  #written = 0;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The last block read, and its offset: records read in file order come from one read per block. */
  #block: Buffer | null = null;
  #blockAt = 0;
  #readBuffer: Buffer = Buffer.alloc(0);

  /**
   * Makes the file now rather than at the first write, so that a temporary directory that cannot
   * hold it is found before anything is kept (throws the same error a write would).
   */
  open(): this {
    this.#open();
    return this;
  }

  /** Appends `record`; returns its offset. */
  append(record: Buffer): number {
    const offset = this.#written + this.#pendingBytes;
    this.#pending.push(record);
    this.#pendingBytes += record.length;
    if (this.#pendingBytes >= FLUSH_BYTES) this.#flush();
    return offset;
  }

  /** The record of `length` bytes at `offset` (a view that stays valid until the next read). */
  read(offset: number, length: number): Buffer {
    if (offset + length > this.#written) this.#flush();
    const block = this.#block;
    if (block !== null && offset >= this.#blockAt && offset + length <= this.#blockAt + block.length)
      return block.subarray(offset - this.#blockAt, offset - this.#blockAt + length);
    const size = Math.max(length, Math.min(READ_BYTES, this.#written - offset));
    // one buffer for every read (a record read is a view of it): no garbage per read
    if (this.#readBuffer.length < size) this.#readBuffer = Buffer.allocUnsafe(Math.max(size, READ_BYTES));
    const out = this.#readBuffer.subarray(0, size);
    let done = 0;
    while (done < size) {
      const n = readSync(this.#open(), out, done, size - done, offset + done);
      if (n === 0) throw new Error(`SpillFile: the file ends before byte ${offset + length}`);
      done += n;
    }
    this.#block = out;
    this.#blockAt = offset;
    return out.subarray(0, length);
  }

  /** Lets the file go (its space is freed). */
  close(): void {
    if (this.#held.fd !== null) {
      closeSync(this.#held.fd);
      closeWhenCollected.unregister(this.#held);
    }
    this.#held.fd = null;
    this.#written = 0;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#block = null;
    this.#readBuffer = Buffer.alloc(0);
  }

  #flush(): void {
    const fd = this.#open();
    let buffers = this.#pending;
    while (buffers.length > 0) {
      let n: number;
      try {
        n = writevSync(fd, buffers, this.#written);
      } catch (error) {
        throw spillError('cannot write', error);
      }
      this.#written += n;
      buffers = drop(buffers, n);
    }
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #open(): number {
    if (this.#held.fd !== null) return this.#held.fd;
    let dir: string;
    let path: string;
    let fd: number;
    try {
      dir = mkdtempSync(join(tmpdir(), 'evalstream-spill-'));
      path = join(dir, 'spill.bin');
      fd = openSync(path, 'w+');
    } catch (error) {
      throw spillError('cannot create', error);
    }
    this.#held.fd = fd;
    closeWhenCollected.register(this, this.#held, this.#held);
    try {
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      // a system that cannot unlink an open file: it stays until the temporary directory is cleaned
    }
    return fd;
  }
}

/** A spill file dropped without `close` (a report's table once written) lets its file go with it. */
const closeWhenCollected = new FinalizationRegistry<{ fd: number | null }>((held) => {
  if (held.fd === null) return;
  try {
    closeSync(held.fd);
  } catch {
    // already closed
  }
});

/** An error that says which file failed and what to do about it. */
function spillError(what: string, cause: unknown): Error {
  return new Error(
    `${what} the spill file in the temporary directory ${tmpdir()} (set TMPDIR to one with room): ${(cause as Error).message}`,
    { cause },
  );
}

/** `buffers` without their first `n` bytes (after a partial write). */
function drop(buffers: Buffer[], n: number): Buffer[] {
  let i = 0;
  while (i < buffers.length && n >= (buffers[i] as Buffer).length) n -= (buffers[i++] as Buffer).length;
  const rest = buffers.slice(i);
  if (n > 0 && rest.length > 0) rest[0] = (rest[0] as Buffer).subarray(n);
  return rest;
}
