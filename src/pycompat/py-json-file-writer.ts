import { writeSync } from 'node:fs';
import type { PyJson } from './py-json.js';
import { MAX_NUMBER_BYTES, putPyFloat, putSafeInt } from './py-number-bytes.js';
import { quotePyJsonString } from './quote-py-json-string.js';
import { stringifyPyJson } from './stringify-py-json.js';

/**
 * Writes Python-style JSON (the text of `stringifyPyJson`) into a byte buffer flushed to a file
 * descriptor. Its token methods copy numbers and keys byte by byte, so that large, regular parts
 * (Gym's group entries: millions of tokens in a large run) are streamed without first being built
 * as objects or strings.
 *
 * @example
 * const w = new PyJsonFileWriter(fd, 2, 'orjson', false); w.value({ a: 1n }, 0); w.flush();
 */
export class PyJsonFileWriter {
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private readonly pads: Uint8Array[] = [];

  constructor(
    private readonly fd: number,
    readonly indent: number,
    /** How floats are written (see `formatPyFloat`). */
    readonly floats: 'orjson' | 'repr',
    private readonly ensureAscii: boolean,
  ) {}

  flush(): void {
    let w = 0;
    while (w < this.used) w += writeSync(this.fd, this.buf, w, this.used - w);
    this.used = 0;
  }

  private room(n: number): void {
    if (this.used + n > this.buf.length) {
      this.flush();
      if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
    }
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.used);
    this.used += b.length;
  }

  ascii(s: string): void {
    const n = s.length;
    this.room(3 * n);
    const buf = this.buf;
    let u = this.used;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.used += buf.write(s, this.used, 'utf8');
        return;
      }
      buf[u++] = c;
    }
    this.used = u;
  }

  byte(c: number): void {
    this.room(1);
    this.buf[this.used++] = c;
  }

  /** An integer-valued double, written as the Python int `BigInt(x)` would be. */
  int(x: number): void {
    if (x >= -9007199254740991 && x <= 9007199254740991) {
      this.room(MAX_NUMBER_BYTES);
      this.used = putSafeInt(this.buf, this.used, x);
    } else this.ascii(BigInt(x).toString());
  }

  /**
   * The bytes that open member `k` of an object whose members are at `depth`: the comma (unless
   * `first`), the newline and indentation (when indented), and the key with its colon.
   */
  memberPrefix(k: string, depth: number, first: boolean): Uint8Array {
    const key = quotePyJsonString(k, this.ensureAscii) + (this.indent > 0 ? ': ' : ':');
    return Buffer.concat([Buffer.from(first ? '' : ','), this.padBytes(depth), Buffer.from(key)]);
  }

  pad(depth: number): void {
    this.bytes(this.padBytes(depth));
  }

  /** The bytes of {@link pad} (a newline and the indentation of `depth`; none when compact). */
  padBytes(depth: number): Uint8Array {
    let p = this.pads[depth];
    if (p === undefined) {
      p = Buffer.from(this.indent > 0 ? '\n' + ' '.repeat(this.indent * depth) : '');
      this.pads[depth] = p;
    }
    return p;
  }

  float(x: number): void {
    this.room(MAX_NUMBER_BYTES);
    this.used = putPyFloat(this.buf, this.used, x, this.floats);
  }

  /**
   * A whole value at `depth`, laid out by `stringifyPyJson`; an indented array item by item, so that
   * a large list never becomes one string.
   */
  value(v: PyJson, depth: number): void {
    if (!Array.isArray(v) || v.length === 0 || this.indent === 0) {
      const { indent, floats, ensureAscii } = this;
      this.ascii(stringifyPyJson(v, { indent, floats, ensureAscii, level: depth }));
      return;
    }
    this.byte(0x5b);
    for (let i = 0; i < v.length; i++) {
      if (i > 0) this.byte(0x2c);
      this.pad(depth + 1);
      this.value(v[i] as PyJson, depth + 1);
    }
    this.pad(depth);
    this.byte(0x5d);
  }
}
