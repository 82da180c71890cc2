import type { PyJson } from '../py-json.js';
import { JsonSyntaxError } from './json-syntax-error.js';
import type { KeyInterner } from './key-interner.js';
import { WasmStringScanner, type BufferValidator } from './wasm-string-scanner.js';

/** Byte classes inside a string: 0 plain, 1 quote, 2 backslash, 3 control character (invalid). */
const STRING_CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_CLASS[c] = 3;
STRING_CLASS[0x22] = 1;
STRING_CLASS[0x5c] = 2;

/** Valid characters after a backslash (`"\/bfnrtu`). */
const ESCAPES = new Uint8Array(256);
for (const ch of '"\\/bfnrtu') ESCAPES[ch.charCodeAt(0)] = 1;

const HEX = new Uint8Array(256);
for (const ch of '0123456789abcdefABCDEF') HEX[ch.charCodeAt(0)] = 1;

/** Exact powers of ten 10^0 … 10^22. */
const POW10: number[] = [];
for (let k = 0, p = 1; k <= 22; k++, p *= 10) POW10.push(p);

/** Nesting limit, as orjson's (deeper input is rejected). */
const MAX_DEPTH = 1024;

/** Container closers of {@link JsonCursor}'s fast skip (deeper values take the strict path). */
const FAST_STACK = new Uint8Array(256);

/** Bytes of a string tested one by one before handing the rest to the WebAssembly scan. */
const SHORT_STRING = 8;

/**
 * After the opening quote at `i - 1`: the index after the closing quote, or -1 for an invalid
 * string or the end of the line (the strict path then reports it). With `find` (a buffer in
 * WebAssembly memory) long runs are scanned 16 bytes at a time with SIMD; otherwise four bytes at a
 * time (SWAR) until a word holds a quote, a backslash or a control character.
 */
function skipStringAt(
  b: Uint8Array,
  words: Int32Array,
  wordBase: number,
  i: number,
  end: number,
  find: ((i: number, end: number) => number) | null,
): number {
  for (;;) {
    if (find !== null) {
      const short = Math.min(end, i + SHORT_STRING);
      while (i < short && STRING_CLASS[b[i] as number] === 0) i++;
      if (i === short && i < end) i = find(i, end);
    } else {
      while (i < end && ((i - wordBase) & 3) !== 0 && STRING_CLASS[b[i] as number] === 0) i++;
    }
    if (find === null && i < end && ((i - wordBase) & 3) === 0) {
      let k = (i - wordBase) >> 2;
      const kEnd = (end - wordBase) >> 2;
      while (k < kEnd) {
        const w = words[k] as number;
        const q = w ^ 0x22222222;
        const s = w ^ 0x5c5c5c5c;
        if ((((w - 0x20202020) & ~w) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) break;
        k++;
      }
      i = wordBase + 4 * k;
      while (i < end && STRING_CLASS[b[i] as number] === 0) i++;
    }
    if (i >= end) return -1;
    const k = STRING_CLASS[b[i] as number];
    if (k === 1) return i + 1;
    if (k !== 2 || i + 1 >= end) return -1;
    const e = b[i + 1] as number;
    if (ESCAPES[e] === 0) return -1;
    if (e === 0x75) {
      if (i + 5 >= end) return -1;
      for (let h = 2; h < 6; h++) if (HEX[b[i + h] as number] === 0) return -1;
      i += 6;
    } else i += 2;
  }
}

/** The index of the first non-whitespace byte at or after `i` (or `end`). */
function skipWs(b: Uint8Array, i: number, end: number): number {
  let c: number;
  while (i < end && ((c = b[i] as number) === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) i++;
  return i;
}

/** At a number's first byte: the index after it (JSON grammar), or -1 when it is invalid. */
function skipNumberAt(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 0x2d) i++;
  if (i >= end) return -1;
  let c = b[i] as number;
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    i++;
    while (i < end && (c = b[i] as number) >= 0x30 && c <= 0x39) i++;
  } else return -1;
  if (i < end && b[i] === 0x2e) {
    i++;
    const d0 = i;
    while (i < end && (c = b[i] as number) >= 0x30 && c <= 0x39) i++;
    if (i === d0) return -1;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const d0 = i;
    while (i < end && (c = b[i] as number) >= 0x30 && c <= 0x39) i++;
    if (i === d0) return -1;
  }
  return i;
}

function describeByte(c: number | undefined): string {
  if (c === undefined) return 'end of line';
  if (c >= 0x20 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/**
 * A strict, allocation-light JSON reader over the bytes of one line (RFC 8259 grammar, as orjson
 * accepts it). It can skip any value (validating it), read numbers with their int/float kind, intern
 * object keys, and build values on demand. Errors are {@link JsonSyntaxError}s with a byte offset
 * relative to `base`. The caller checks UTF-8 validity of the line separately.
 *
 * @example
 * const c = new JsonCursor(Buffer.from('{"a": 1}'), 0, 8);
 * c.skipValue(0); // c.i === 8
 */
export class JsonCursor {
  /** Last number read by {@link readNumber}. */
  num = 0;
  /** Whether it was written as an integer (no fraction or exponent). */
  numIsInt = false;
  /** The exact value of an integer with more than 15 digits, else null. */
  numBig: bigint | null = null;
  /** Set when whitespace was skipped between tokens (the line is not compact JSON). */
  sawWhitespace = false;
  private words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private wordBase = 0;
  private wordsOf: Uint8Array | null = null;
  private find: ((i: number, end: number) => number) | null = null;
  private validator: BufferValidator | null = null;
  private view: Buffer = Buffer.alloc(0);
  private viewOf: Uint8Array | null = null;
  private lastRaw = new Uint8Array(64);
  private lastRawLength = -1;
  private lastString = '';
  /** The value index found by {@link skipObjectFindKey}. */
  private watchAt = -1;

  constructor(
    public b: Uint8Array,
    public i: number,
    public end: number,
    public base: number = i,
  ) {}

  /** Points the cursor at a new line. */
  reset(b: Uint8Array, start: number, end: number): void {
    this.b = b;
    this.i = start;
    this.end = end;
    this.base = start;
    this.sawWhitespace = false;
  }

  fail(message: string, at: number = this.i): never {
    throw new JsonSyntaxError(at - this.base, message);
  }

  unexpected(what: string): never {
    const c = this.i < this.end ? this.b[this.i] : undefined;
    this.fail(`expected ${what}, found ${describeByte(c)}`);
  }

  /** Skips JSON whitespace and returns the next byte (or -1 at the end). */
  ws(): number {
    const b = this.b;
    let i = this.i;
    const end = this.end;
    while (i < end) {
      const c = b[i] as number;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else {
        if (i !== this.i) this.sawWhitespace = true;
        this.i = i;
        return c;
      }
    }
    if (i !== this.i) this.sawWhitespace = true;
    this.i = i;
    return -1;
  }

  /** Consumes `c` after optional whitespace or fails with `what`. */
  expect(c: number, what: string): void {
    if (this.ws() !== c) this.unexpected(what);
    this.i++;
  }

  /** At `{`: consumes it; returns false when the object is empty (`}` consumed too). */
  enterObject(): boolean {
    this.i++;
    if (this.ws() !== 0x7d) return true;
    this.i++;
    return false;
  }

  /** At an object member: fails unless its key starts here (a quote after whitespace). */
  keyStart(): void {
    if (this.ws() !== 0x22) this.unexpected('a string key');
  }

  /** After a member's key: consumes the `:`. */
  colon(): void {
    this.expect(0x3a, "':' after an object key");
  }

  /** After a member's value: consumes `,` (returns true: a member follows) or `}` (returns false). */
  nextMember(): boolean {
    return this.separator(0x7d, "',' or '}' in an object");
  }

  /** After an element: consumes `,` (returns true: an element follows) or `]` (returns false). */
  nextElement(): boolean {
    return this.separator(0x5d, "',' or ']' in an array");
  }

  private separator(closer: number, what: string): boolean {
    const d = this.ws();
    if (d === 0x2c || d === closer) {
      this.i++;
      return d === 0x2c;
    }
    return this.unexpected(what);
  }

  /** Skips a string whose opening quote is at `i`; leaves `i` after the closing quote. */
  skipString(): void {
    const b = this.b;
    if (b !== this.wordsOf) this.makeWords();
    const after = skipStringAt(b, this.words, this.wordBase, this.i + 1, this.end, this.find);
    if (after >= 0) {
      this.i = after;
      return;
    }
    // not a valid string: find what is wrong and where, byte by byte
    let i = this.i + 1;
    for (;;) {
      if (i >= this.end) this.fail('unterminated string', i);
      const k = STRING_CLASS[b[i] as number];
      if (k === 0) i++;
      else if (k === 1) {
        this.i = i + 1;
        return;
      } else if (k === 2) i = this.escape(i);
      else this.fail('control character in string', i);
    }
  }

  /** Builds the 32-bit word view (and finds the WebAssembly scan) of the current buffer used by {@link skipString}. */
  private makeWords(): void {
    const b = this.b;
    const aligned = (b.byteOffset + 3) & ~3;
    this.wordBase = aligned - b.byteOffset;
    const count = Math.max(0, (b.byteOffset + b.byteLength - aligned) >> 2);
    this.words = new Int32Array(b.buffer, aligned, count);
    this.find = WasmStringScanner.finderOf(b);
    this.validator = WasmStringScanner.validatorOf(b);
    this.wordsOf = b;
  }

  /** Validates the escape at `i` (a backslash) and returns the index after it. */
  private escape(i: number): number {
    const b = this.b;
    const c = b[i + 1];
    if (c === undefined || i + 1 >= this.end || ESCAPES[c] === 0) this.fail('invalid escape in string', i);
    if (c !== 0x75) return i + 2;
    for (let k = 2; k < 6; k++) {
      if (i + k >= this.end || HEX[b[i + k] as number] === 0) this.fail('invalid \\u escape in string', i);
    }
    return i + 6;
  }

  /** A Buffer over the current bytes, for decoding (made once per buffer). */
  private textView(): Buffer {
    const b = this.b;
    if (this.viewOf !== b) {
      this.view = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
      this.viewOf = b;
    }
    return this.view;
  }

  /**
   * Reads the object key at `i` (a quote) and returns its interned id. `slot` (0 … 127, optional)
   * names the key's place, e.g. its member position: the key last read there is tried first, by
   * comparing its bytes (rows of a file tend to have their keys in the same order).
   */
  readKey(keys: KeyInterner, slot = -1): number {
    const b = this.b;
    const end = this.end;
    const start = this.i + 1;
    if (slot >= 0) {
      const guess = keys.guess(slot);
      if (guess !== null) {
        const n = guess.length;
        if (start + n < end && b[start + n] === 0x22) {
          let k = 0;
          while (k < n && b[start + k] === guess[k]) k++;
          if (k === n) {
            this.i = start + n + 1;
            return keys.guessedId(slot);
          }
        }
      }
      const id = this.readKey(keys);
      keys.remember(slot, id);
      return id;
    }
    let i = start;
    let h = 0x811c9dc5;
    for (;;) {
      if (i >= end) this.fail('unterminated string', i);
      const c = b[i] as number;
      const k = STRING_CLASS[c];
      if (k === 0) {
        h = Math.imul(h ^ c, 16777619);
        i++;
        continue;
      }
      if (k === 1) {
        this.i = i + 1;
        return keys.idOfBytes(b, start, i, h >>> 0);
      }
      if (k === 2) {
        this.i = start - 1;
        return keys.idOfString(this.readString());
      }
      this.fail('control character in string', i);
    }
  }

  /**
   * At a string (a quote): if it is exactly the unescaped ASCII `word`, consumes it and returns true;
   * otherwise skips the string and returns false.
   */
  keyIs(word: string): boolean {
    const b = this.b;
    const end = this.end;
    const start = this.i + 1;
    const n = word.length;
    // one pass over a plain key: find its end and compare it with `word` on the way
    let same = true;
    for (let i = start; i < end; i++) {
      const c = b[i] as number;
      if (c === 0x22) {
        this.i = i + 1;
        return same && i - start === n;
      }
      if (c === 0x5c || c < 0x20) break;
      if (same) same = i - start < n && c === word.charCodeAt(i - start);
    }
    // an escaped key (decoded to compare) or an invalid one (skipString reports it)
    const at = this.i;
    this.skipString();
    const text = this.textView().toString('utf8', at, this.i);
    return JSON.parse(text) === word;
  }

  /** Reads and decodes the string at `i` (a quote). */
  readString(): string {
    const start = this.i;
    let escaped = false;
    const b = this.b;
    let i = start + 1;
    for (;;) {
      if (i >= this.end) this.fail('unterminated string', i);
      const k = STRING_CLASS[b[i] as number];
      if (k === 0) i++;
      else if (k === 1) break;
      else if (k === 2) {
        escaped = true;
        i = this.escape(i);
      } else this.fail('control character in string', i);
    }
    this.i = i + 1;
    const buf = this.textView();
    if (!escaped) return buf.toString('utf8', start + 1, i);
    return JSON.parse(buf.toString('utf8', start, i + 1)) as string;
  }

  /**
   * Reads the string at `i` (a quote) like {@link readString}, but returns the previous result of this
   * method without decoding when the raw bytes are the same (e.g. the agent name of every row). Valid
   * string content never ends in an unpaired backslash, so the quote after equal bytes closes it.
   */
  readRepeatedString(): string {
    const b = this.b;
    const start = this.i + 1;
    const n = this.lastRawLength;
    if (n >= 0 && start + n < this.end && b[start + n] === 0x22) {
      const raw = this.lastRaw;
      let k = 0;
      while (k < n && b[start + k] === raw[k]) k++;
      if (k === n) {
        this.i = start + n + 1;
        return this.lastString;
      }
    }
    const s = this.readString();
    const length = this.i - 1 - start;
    if (length <= 1024) {
      if (this.lastRaw.length < length) this.lastRaw = new Uint8Array(1024);
      this.lastRaw.set(b.subarray(start, start + length));
      this.lastRawLength = length;
      this.lastString = s;
    }
    return s;
  }

  /** Reads the number at `i` into `num`/`numIsInt`/`numBig`. */
  readNumber(): void {
    const b = this.b;
    const end = this.end;
    const start = this.i;
    let i = start;
    let neg = false;
    if (b[i] === 0x2d) {
      neg = true;
      i++;
    }
    let c = i < end ? (b[i] as number) : -1;
    // all significant digits as an integer while they fit 15 digits (exact in a double)
    let mant = 0;
    let digits = 0;
    if (c === 0x30) {
      i++;
    } else if (c >= 0x31 && c <= 0x39) {
      while (i < end) {
        c = b[i] as number;
        if (c < 0x30 || c > 0x39) break;
        mant = mant * 10 + (c - 0x30);
        digits++;
        i++;
      }
    } else {
      this.i = i;
      this.unexpected('a digit');
    }
    let isInt = true;
    let fracDigits = 0;
    if (i < end && b[i] === 0x2e) {
      isInt = false;
      i++;
      const d0 = i;
      while (i < end) {
        c = b[i] as number;
        if (c < 0x30 || c > 0x39) break;
        if (digits > 0 || c !== 0x30) {
          mant = mant * 10 + (c - 0x30);
          digits++;
        }
        fracDigits++;
        i++;
      }
      if (i === d0) {
        this.i = i;
        this.unexpected('a digit after the decimal point');
      }
    }
    let exp = 0;
    let expOk = true;
    if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
      isInt = false;
      i++;
      let expNeg = false;
      if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) {
        expNeg = b[i] === 0x2d;
        i++;
      }
      const d0 = i;
      while (i < end) {
        c = b[i] as number;
        if (c < 0x30 || c > 0x39) break;
        if (exp < 100000) exp = exp * 10 + (c - 0x30);
        else expOk = false;
        i++;
      }
      if (i === d0) {
        this.i = i;
        this.unexpected('a digit in the exponent');
      }
      if (expNeg) exp = -exp;
    }
    this.i = i;
    this.numIsInt = isInt;
    this.numBig = null;
    if (digits <= 15 && expOk) {
      if (isInt) {
        this.num = neg ? -mant : mant;
        return;
      }
      // Clinger's fast path: an exact mantissa times/divided by an exact power of ten rounds once.
      const e10 = exp - fracDigits;
      if (mant === 0) {
        this.num = neg ? -0 : 0;
        return;
      }
      if (e10 >= 0 && e10 <= 22) {
        const v = mant * (POW10[e10] as number);
        this.num = neg ? -v : v;
        return;
      }
      if (e10 < 0 && e10 >= -22) {
        const v = mant / (POW10[-e10] as number);
        this.num = neg ? -v : v;
        return;
      }
    }
    const text = this.textView().toString('latin1', start, i);
    if (isInt) {
      this.numBig = BigInt(text);
      this.num = Number(this.numBig);
    } else {
      this.num = Number(text);
    }
  }

  /** Consumes the literal `word` (true/false/null) at `i`. */
  literal(word: string): void {
    const b = this.b;
    for (let k = 0; k < word.length; k++) {
      if (this.i + k >= this.end || b[this.i + k] !== word.charCodeAt(k))
        this.fail(`invalid literal, expected ${word}`);
    }
    this.i += word.length;
  }

  /** Skips (and validates) the value starting at the next non-whitespace byte. */
  skipValue(depth: number): void {
    if (!this.skipValueFast(depth, null)) this.skipValueStrict(depth);
  }

  /**
   * At an object's `{` (nested `depth` deep): skips the whole object like {@link skipValue} and
   * returns the index of the value of its member named `key` (after the `:`), or -1 when it has none.
   * Returns -2, with `i` unchanged, when the object is not accepted by the fast skip, has `key` more
   * than once, or has a member name with an escape; the caller then reads the members one by one.
   * `key` is the raw bytes of a name without escapes.
   */
  skipObjectFindKey(depth: number, key: Uint8Array): number {
    this.watchAt = -1;
    return this.skipValueFast(depth, key) ? this.watchAt : -2;
  }

  /**
   * The common case of {@link skipValue} in one loop with an explicit stack: returns false (with `i`
   * unchanged) at anything it does not accept — invalid input, deep nesting — so that the recursive
   * {@link skipValueStrict} decides, with its exact message.
   */
  private skipValueFast(depth: number, watch: Uint8Array | null): boolean {
    const b = this.b;
    const end = this.end;
    if (b !== this.wordsOf) this.makeWords();
    const words = this.words;
    const wordBase = this.wordBase;
    const find = this.find;
    const stack = FAST_STACK;
    const maxDepth = Math.min(FAST_STACK.length, MAX_DEPTH - depth);
    const v = this.validator;
    if (v !== null && (watch === null || (watch.length > 0 && watch.length <= WasmStringScanner.watchMax))) {
      // the same loop in WebAssembly (wasm-json-validator.ts), over the buffer where it lives
      if (watch !== null && v.watching.name !== watch) {
        v.memory.set(watch, v.stack + 256);
        v.watching.name = watch;
      }
      const base = v.base;
      const after = v.validator.skip(
        this.i + base,
        end + base,
        maxDepth,
        v.stack,
        watch === null ? 0 : watch.length,
      );
      if (after < 0) return false;
      this.i = after - base;
      if (v.validator.ws() !== 0) this.sawWhitespace = true;
      if (watch !== null) {
        const at = v.validator.at();
        this.watchAt = at < 0 ? -1 : at - base;
      }
      return true;
    }
    let i = this.i;
    let sp = 0;
    let ws = false;
    let key = false;
    for (;;) {
      // a value at i (after whitespace), preceded by a key and ':' when `key`
      let j = skipWs(b, i, end);
      if (j !== i) ws = true;
      i = j;
      if (i >= end) return false;
      let c = b[i] as number;
      if (key) {
        if (c !== 0x22) return false;
        const k0 = i + 1;
        i = skipStringAt(b, words, wordBase, k0, end, find);
        if (i < 0) return false;
        j = skipWs(b, i, end);
        if (j !== i) ws = true;
        if (j >= end || b[j] !== 0x3a) return false;
        if (watch !== null && sp === 1 && !this.watchKey(watch, k0, i - 1, j + 1)) return false;
        i = j + 1;
        key = false;
        continue;
      }
      if (c === 0x22) {
        i = skipStringAt(b, words, wordBase, i + 1, end, find);
        if (i < 0) return false;
      } else if (c === 0x7b || c === 0x5b) {
        if (sp >= maxDepth) return false;
        const closer = c === 0x7b ? 0x7d : 0x5d;
        j = skipWs(b, i + 1, end);
        if (j !== i + 1) ws = true;
        i = j;
        if (i < end && b[i] === closer) i++;
        else {
          stack[sp++] = closer;
          key = closer === 0x7d;
          continue;
        }
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        i = skipNumberAt(b, i, end);
        if (i < 0) return false;
      } else if (c === 0x74) {
        if (i + 3 >= end || b[i + 1] !== 0x72 || b[i + 2] !== 0x75 || b[i + 3] !== 0x65) return false;
        i += 4;
      } else if (c === 0x66) {
        if (i + 4 >= end || b[i + 1] !== 0x61 || b[i + 2] !== 0x6c || b[i + 3] !== 0x73 || b[i + 4] !== 0x65)
          return false;
        i += 5;
      } else if (c === 0x6e) {
        if (i + 3 >= end || b[i + 1] !== 0x75 || b[i + 2] !== 0x6c || b[i + 3] !== 0x6c) return false;
        i += 4;
      } else return false;
      // after a value: close containers, or a comma before the next member or element
      for (;;) {
        if (sp === 0) {
          this.i = i;
          if (ws) this.sawWhitespace = true;
          return true;
        }
        j = skipWs(b, i, end);
        if (j !== i) ws = true;
        i = j;
        if (i >= end) return false;
        c = b[i] as number;
        const closer = stack[sp - 1] as number;
        if (c === closer) {
          i++;
          sp--;
          continue;
        }
        if (c !== 0x2c) return false;
        i++;
        key = closer === 0x7d;
        break;
      }
    }
  }

  /**
   * For {@link skipObjectFindKey}: a member name `b[k0, k1)` of the watched object whose value starts
   * at `at`. Records `at` when the name is `watch`; false (give up) on a second one or an escaped name.
   */
  private watchKey(watch: Uint8Array, k0: number, k1: number, at: number): boolean {
    const b = this.b;
    const n = k1 - k0;
    if (n === watch.length) {
      let k = 0;
      while (k < n && b[k0 + k] === watch[k]) k++;
      if (k === n) {
        if (this.watchAt >= 0) return false;
        this.watchAt = at;
        return true;
      }
    }
    for (let k = k0; k < k1; k++) if (b[k] === 0x5c) return false;
    return true;
  }

  /** {@link skipValue} by recursive descent, throwing the exact {@link JsonSyntaxError}. */
  skipValueStrict(depth: number): void {
    const c = this.ws();
    switch (c) {
      case 0x22:
        this.skipString();
        return;
      case 0x7b:
        this.skipObject(depth + 1);
        return;
      case 0x5b:
        this.skipArray(depth + 1);
        return;
      case 0x74:
        this.literal('true');
        return;
      case 0x66:
        this.literal('false');
        return;
      case 0x6e:
        this.literal('null');
        return;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          this.readNumber();
          return;
        }
        this.unexpected('a value');
    }
  }

  /** Skips an object whose `{` is at `i`. */
  skipObject(depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    if (!this.enterObject()) return;
    do {
      this.keyStart();
      this.skipString();
      this.colon();
      this.skipValueStrict(depth);
    } while (this.nextMember());
  }

  /** Skips an array whose `[` is at `i`. */
  skipArray(depth: number): void {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.i++;
    if (this.ws() === 0x5d) {
      this.i++;
      return;
    }
    do this.skipValueStrict(depth);
    while (this.nextElement());
  }

  /** Reads the value at the next non-whitespace byte as {@link PyJson} (ints as bigint). */
  readValue(depth: number): PyJson {
    const c = this.ws();
    switch (c) {
      case 0x22:
        return this.readString();
      case 0x7b: {
        if (depth + 1 > MAX_DEPTH) this.fail('nesting too deep');
        const out: { [key: string]: PyJson } = {};
        if (!this.enterObject()) return out;
        do {
          this.keyStart();
          const key = this.readString();
          this.colon();
          const v = this.readValue(depth + 1);
          if (key === '__proto__') {
            Object.defineProperty(out, key, {
              value: v,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          } else out[key] = v;
        } while (this.nextMember());
        return out;
      }
      case 0x5b: {
        if (depth + 1 > MAX_DEPTH) this.fail('nesting too deep');
        this.i++;
        const out: PyJson[] = [];
        if (this.ws() === 0x5d) {
          this.i++;
          return out;
        }
        do out.push(this.readValue(depth + 1));
        while (this.nextElement());
        return out;
      }
      case 0x74:
        this.literal('true');
        return true;
      case 0x66:
        this.literal('false');
        return false;
      case 0x6e:
        this.literal('null');
        return null;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          this.readNumber();
          if (!this.numIsInt) return this.num;
          return this.numBig ?? BigInt(this.num);
        }
        return this.unexpected('a value');
    }
  }
}
