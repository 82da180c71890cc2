import { open, type FileHandle } from 'node:fs/promises';

const FLUSH_AT = 1 << 20;

/**
 * Appends lines to a new file through a 1 MiB buffer; writes are serialised so lines keep the order
 * of the calls.
 *
 * @example
 * const w = await JsonlWriter.create('/tmp/x.jsonl');
 * await w.writeLine('{"a": 1}');
 * await w.close();
 */
export class JsonlWriter {
  #buffer = '';
  #pending: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(private readonly handle: FileHandle) {}

  /** Creates (truncates) `file`. */
  static async create(file: string): Promise<JsonlWriter> {
    return new JsonlWriter(await open(file, 'w'));
  }

  /** Appends `text` and a newline. */
  writeLine(text: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('JsonlWriter is closed'));
    this.#buffer += text + '\n';
    return this.#buffer.length >= FLUSH_AT ? this.flush() : this.#pending;
  }

  /** Writes the buffer to the file. */
  flush(): Promise<void> {
    const data = this.#buffer;
    this.#buffer = '';
    if (data !== '') this.#pending = this.#pending.then(() => this.handle.write(data).then(() => undefined));
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
