/** Bytes of the first chunk; each next one doubles, up to `MAX_CHUNK`. */
const FIRST_CHUNK = 1024;
const MAX_CHUNK = 1 << 16;

/**
 * A column of the report's embedded JSON written as it fills: a JSON array (`array`, items given as
 * their JSON text) or a JSON string of plain ASCII characters (`chars`), kept as UTF-8 bytes in chunks
 * of up to 64 KiB outside the JavaScript heap. Items must already be safe inside
 * `<script type="application/json">` (no `<`: see `embedJson`). `pieces()` gives the text in order,
 * `value()` parses it back.
 *
 * @example
 * const ids = new JsonTextColumn('array');
 * ids.push('"t1"');
 * ids.push('"t2"');
 * [...ids.pieces()].join(''); // '["t1","t2"]'
 */
export class JsonTextColumn {
  readonly #chunks: Buffer[] = [];
  #current: Buffer = Buffer.allocUnsafe(FIRST_CHUNK);
  #used = 0;
  #length = 0;

  constructor(readonly kind: 'array' | 'chars') {}

  /** Items (array) or characters (chars) written so far. */
  get length(): number {
    return this.#length;
  }

  /** Appends one array item as its JSON text, or (chars) one or more characters. */
  push(text: string): void {
    if (this.kind === 'array' && this.#length > 0) this.#write(',', 0);
    this.#write(text, this.kind === 'array' ? 1 : text.length);
  }

  /** Appends `count` copies of `text` (an item, or characters). */
  repeat(text: string, count: number): void {
    for (let i = 0; i < count; i += 1) this.push(text);
  }

  /** The JSON text, in pieces of at most 64 K characters. */
  *pieces(): Generator<string> {
    yield this.kind === 'array' ? '[' : '"';
    for (const chunk of this.#chunks) yield chunk.toString('utf8');
    if (this.#used > 0) yield this.#current.toString('utf8', 0, this.#used);
    yield this.kind === 'array' ? ']' : '"';
  }

  /** The column as a value (an array, or a string). */
  value(): unknown {
    return JSON.parse([...this.pieces()].join(''));
  }

  /** `JSON.stringify` sees the value. */
  toJSON(): unknown {
    return this.value();
  }

  #write(text: string, items: number): void {
    // a character takes at most 3 bytes (a surrogate pair 4 for 2); items never straddle two chunks
    const most = text.length * 3;
    if (this.#used + most > this.#current.length) {
      if (this.#used > 0) this.#chunks.push(this.#current.subarray(0, this.#used));
      const size = Math.min(MAX_CHUNK, this.#current.length * 2);
      this.#current = Buffer.allocUnsafe(Math.max(size, most));
      this.#used = 0;
    }
    this.#used += this.#current.write(text, this.#used, 'utf8');
    this.#length += items;
  }
}
