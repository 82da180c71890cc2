import { open, type FileHandle } from 'node:fs/promises';

const DEFAULT_BUFFER_BYTES = 1 << 20;

/**
 * Appends lines to a new file through reused 1 MiB byte buffers; writes are serialised so lines keep
 * the order of the calls. Each line is encoded into the buffer as it is given (its string is garbage at
 * once); a line longer than a buffer is written on its own.
 *
 * @example
 * const w = await JsonlWriter.create('runs/r1/scores.jsonl');
 * await w.writeLine('{"a": 1}');
 * await w.close();
 */
export class JsonlWriter {
  readonly #bufferBytes: number;
  #buffer: Buffer;
  #used = 0;
  /** Buffers whose write is done, for reuse. */
  readonly #free: Buffer[] = [];
  #pending: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(
    private readonly handle: FileHandle,
    bufferBytes: number,
  ) {
    this.#bufferBytes = bufferBytes;
    this.#buffer = Buffer.allocUnsafe(bufferBytes);
  }

  /** Creates (truncates) `file`. `bufferBytes` (default 1 MiB) is the size of each buffer. */
  static async create(file: string, options: { bufferBytes?: number } = {}): Promise<JsonlWriter> {
    const bytes = Math.max(16, options.bufferBytes ?? DEFAULT_BUFFER_BYTES);
    return new JsonlWriter(await open(file, 'w'), bytes);
  }

  /** Appends `text` and a newline. */
  writeLine(text: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('JsonlWriter is closed'));
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    const most = text.length * 3 + 1;
    if (most > this.#bufferBytes - this.#used) {
      void this.flush(); // chained in `#pending`, which this call returns
      if (most > this.#bufferBytes) {
        const line = text + '\n';
        this.#pending = this.#pending.then(() => this.handle.write(line).then(() => undefined));
        return this.#pending;
      }
    }
    const buffer = this.#buffer;
    const at = this.#used + buffer.write(text, this.#used, 'utf8');
    buffer[at] = 0x0a;
    this.#used = at + 1;
    return this.#pending;
  }

  /** Writes the buffer to the file. */
  flush(): Promise<void> {
    if (this.#used === 0) return this.#pending;
    const full = this.#buffer;
    const length = this.#used;
    this.#pending = this.#pending.then(async () => {
      // a write to a file may take fewer bytes than given (a full disk errors on the next one)
      for (let done = 0; done < length;)
        done += (await this.handle.write(full, done, length - done)).bytesWritten;
      this.#free.push(full);
    });
    this.#buffer = this.#free.pop() ?? Buffer.allocUnsafe(this.#bufferBytes);
    this.#used = 0;
    return this.#pending;
  }

  /** Flushes and closes; safe to call twice. */
  async close(): Promise<void> {
    if (this.#closed) return this.#pending;
    await this.flush();
    this.#closed = true;
    await this.handle.close();
  }
}
