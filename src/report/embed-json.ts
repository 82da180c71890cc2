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

/** Elements of an array of plain values serialised at once. */
const BLOCK = 4096;
/** Pieces are joined until they reach this many characters. */
const PIECE_CHARS = 1 << 16;

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** The JSON text of `value` (one of its parts), as the parts `JSON.stringify` would concatenate. */
function* parts(value: unknown): Generator<string> {
  if (value instanceof JsonTextColumn) {
    yield* value.pieces();
    return;
  }
  if (Array.isArray(value)) {
    if (!value.some(isContainer)) {
      // plain values: whole blocks at once (`slice` turns holes into undefined: `null`, as in the whole)
      if (value.length <= BLOCK) {
        yield JSON.stringify(value);
        return;
      }
      yield '[';
      for (let i = 0; i < value.length; i += BLOCK) {
        const text = JSON.stringify(value.slice(i, i + BLOCK));
        yield (i === 0 ? '' : ',') + text.slice(1, -1);
      }
      yield ']';
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) yield ',';
      const item: unknown = value[i];
      if (isContainer(item)) yield* parts(item);
      else yield JSON.stringify(item) ?? 'null';
    }
    yield ']';
    return;
  }
  if (isContainer(value) && !('toJSON' in value)) {
    yield '{';
    let first = true;
    for (const key of Object.keys(value)) {
      const item: unknown = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (isContainer(item)) yield* parts(item);
      else yield JSON.stringify(item);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value);
}

/**
 * Serialises a value as JSON that can sit inside `<script type="application/json">`: every `<` is
 * written as `\u003c`, so no `</script>` or `<!--` can end or confuse the block. The value must
 * already be strict JSON (see `compactJson`); `JSON.parse` of the script's text returns it unchanged.
 *
 * @example
 * embedJson({ a: '</script>' }); // '{"a":"\\u003c/script>"}'
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * `embedJson(value)` cut into pieces of about 64 K characters, whose concatenation is exactly
 * `embedJson(value)`: a large value (the report's per-trial table) is serialised without ever holding
 * its whole JSON text as one string, nor a copy of it. Why it is not one `JSON.stringify`: a string
 * cannot pass V8's limit of about 2^29 characters, which the table of a run of some 30M outputs does.
 *
 * @example
 * [...embedJsonChunks({ a: '</script>' })].join(''); // '{"a":"\\u003c/script>"}'
 */
export function* embedJsonChunks(value: unknown): Generator<string> {
  let pending: string[] = [];
  let chars = 0;
  for (const part of parts(value)) {
    pending.push(part);
    chars += part.length;
    if (chars >= PIECE_CHARS) {
      yield pending.join('').replace(/</g, '\\u003c');
      pending = [];
      chars = 0;
    }
  }
  if (pending.length > 0) yield pending.join('').replace(/</g, '\\u003c');
}
