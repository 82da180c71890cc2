import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writevSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Appended records are written to the file once this many bytes wait. */
const FLUSH_BYTES = 1 << 20;
/** Bytes read at once when reading back. */
const READ_BYTES = 1 << 20;

/**
 * An append-only file of records (byte strings), read back by offset: where `serve` keeps each
 * kept trial's latest version instead of the heap. The file is made in the system's temporary
 * directory (`TMPDIR`) and unlinked at once: it takes disk space while the process holds it, and
 * none after the process ends, however it ends.
 *
 * @example
 * const journal = new TrialJournal();
 * const at = journal.append(Buffer.from('record'));
 * journal.read(at, 6).toString(); // 'record'
 */
export class TrialJournal {
  #fd: number | null = null;
  /** Bytes in the file. */
  #written = 0;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The last block read, and its offset: records read in file order come from one read per block. */
  #block: Buffer | null = null;
  #blockAt = 0;

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
    const out = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = readSync(this.#open(), out, done, size - done, offset + done);
      if (n === 0) throw new Error(`TrialJournal: the file ends before byte ${offset + length}`);
      done += n;
    }
    this.#block = out;
    this.#blockAt = offset;
    return out.subarray(0, length);
  }

  /** Lets the file go (its space is freed). */
  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    this.#written = 0;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#block = null;
  }

  #flush(): void {
    const fd = this.#open();
    let buffers = this.#pending;
    while (buffers.length > 0) {
      const n = writevSync(fd, buffers, this.#written);
      this.#written += n;
      buffers = drop(buffers, n);
    }
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #open(): number {
    if (this.#fd !== null) return this.#fd;
    const dir = mkdtempSync(join(tmpdir(), 'evalstream-live-'));
    const path = join(dir, 'trials.bin');
    this.#fd = openSync(path, 'w+');
    try {
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      // a system that cannot unlink an open file: it stays until the temporary directory is cleaned
    }
    return this.#fd;
  }
}

/** `buffers` without their first `n` bytes (after a partial write). */
function drop(buffers: Buffer[], n: number): Buffer[] {
  let i = 0;
  while (i < buffers.length && n >= (buffers[i] as Buffer).length) n -= (buffers[i++] as Buffer).length;
  const rest = buffers.slice(i);
  if (n > 0 && rest.length > 0) rest[0] = (rest[0] as Buffer).subarray(n);
  return rest;
}
