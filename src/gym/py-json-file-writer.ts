import { writeSync } from 'node:fs';
import { formatPyFloat } from './format-py-float.js';
import type { PyJson } from './py-json.js';
import { quotePyJsonString } from './quote-py-json-string.js';

/**
 * Writes Python-style JSON straight into a byte buffer flushed to a file descriptor: the same text as
 * `serializePyJson`, but numbers, keys and ASCII strings are copied byte by byte without building
 * intermediate strings (the metrics file of a large run has millions of tokens). The token methods
 * are public so that large, regular parts (e.g. Gym's group entries) can be streamed without first
 * building them as objects.
 *
 * @example
 * const w = new PyJsonFileWriter(fd, 2, 'orjson', false); w.value({ a: 1n }, 0); w.flush();
 */
export class PyJsonFileWriter {
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private readonly keyBytes = new Map<string, Uint8Array>();
  private readonly pads: Uint8Array[] = [];
  private readonly digits = new Uint8Array(24);

  constructor(
    private readonly fd: number,
    readonly indent: number,
    private readonly floats: 'orjson' | 'repr',
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

  /** A non-negative safe integer, in decimal. */
  uint(n: number): void {
    const d = this.digits;
    let k = 0;
    if (n < 0x80000000) {
      // small integers (the usual case) in int32 arithmetic
      let i = n | 0;
      do {
        const q = (i / 10) | 0;
        d[k++] = 0x30 + (i - q * 10);
        i = q;
      } while (i > 0);
    } else
      do {
        const q = Math.floor(n / 10);
        d[k++] = 0x30 + (n - q * 10);
        n = q;
      } while (n > 0);
    this.room(k);
    const buf = this.buf;
    let u = this.used;
    while (k > 0) buf[u++] = d[--k] as number;
    this.used = u;
  }

  /** An integer-valued double, written as the Python int `BigInt(x)` would be. */
  int(x: number): void {
    if (x >= 0 && x <= 9007199254740991) this.uint(x);
    else if (x < 0 && x >= -9007199254740991) {
      this.byte(0x2d);
      this.uint(-x);
    } else this.ascii(BigInt(x).toString());
  }

  string(s: string): void {
    const n = s.length;
    this.room(n + 2);
    const buf = this.buf;
    let u = this.used;
    buf[u++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) {
        this.ascii(quotePyJsonString(s, this.ensureAscii));
        return;
      }
      buf[u++] = c;
    }
    buf[u++] = 0x22;
    this.used = u;
  }

  /** The bytes of `"k": ` (or `"k":` when compact), memoized. */
  encodedKey(k: string): Uint8Array {
    let b = this.keyBytes.get(k);
    if (b === undefined) {
      b = Buffer.from(quotePyJsonString(k, this.ensureAscii) + (this.indent > 0 ? ': ' : ':'), 'utf8');
      if (this.keyBytes.size < 65536) this.keyBytes.set(k, b);
    }
    return b;
  }

  /**
   * The bytes that open member `k` of an object whose members are at `depth`: the comma (unless
   * `first`), the newline and indentation (when indented), and the key with its colon.
   */
  memberPrefix(k: string, depth: number, first: boolean): Uint8Array {
    const pad = this.indent > 0 ? '\n' + ' '.repeat(this.indent * depth) : '';
    const head = Buffer.from((first ? '' : ',') + pad);
    return Buffer.concat([head, this.encodedKey(k)]);
  }

  key(k: string): void {
    this.bytes(this.encodedKey(k));
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
    if (Number.isInteger(x) && x > -1e15 && x < 1e15 && !Object.is(x, -0)) {
      if (x < 0) {
        this.byte(0x2d);
        this.uint(-x);
      } else this.uint(x);
      this.room(2);
      this.buf[this.used++] = 0x2e;
      this.buf[this.used++] = 0x30;
      return;
    }
    if (!this.shortFixed(x)) this.ascii(formatPyFloat(x, this.floats));
  }

  /**
   * Writes a non-integer `x` with 1e-4 <= |x| < 1e7 and at most 8 decimals as its shortest round-trip
   * digits in fixed notation (what `String(x)` gives) without building a string; returns false (and
   * writes nothing) for other values. With m = round(|x|·10^8) and m / 10^8 exactly |x|, dropping m's
   * t trailing decimal zeros gives the integer of k = 8 − t decimals that round-trips with the fewest
   * digits (a k-decimal string that round-trips has m = its integer · 10^(8−k)), and since 10^-k is
   * larger than x's ulp there, no other k-decimal string round-trips, so it is also the closest one.
   */
  private shortFixed(x: number): boolean {
    const a = x < 0 ? -x : x;
    if (!(a >= 1e-4 && a < 1e7)) return false;
    // if some k <= 8 decimals round-trip, 8 do (the scaled value is then an integer within 0.5 of
    // a·10^8, and dividing it back rounds to a): one test rejects the full-precision values
    let m = Math.round(a * 1e8);
    if (m / 1e8 !== a) return false;
    let k = 8;
    // m < 10^15 < 2^53: exact integer arithmetic on doubles; m is not a multiple of 10^8 (x is not
    // an integer), so k stays >= 1
    for (let q = Math.floor(m / 10); q * 10 === m; q = Math.floor(m / 10)) {
      m = q;
      k--;
    }
    this.room(32);
    const buf = this.buf;
    let u = this.used;
    if (x < 0) buf[u++] = 0x2d;
    // digits of m right to left into the scratch, then the integer part, the point and k decimals
    const d = this.digits;
    let n = 0;
    do {
      const q = Math.floor(m / 10);
      d[n++] = 0x30 + (m - q * 10);
      m = q;
    } while (m > 0);
    // n digits hold the k decimals (zero-padded on the left when n <= k)
    if (n <= k) buf[u++] = 0x30;
    else while (n > k) buf[u++] = d[--n] as number;
    buf[u++] = 0x2e;
    for (let z = k - n; z > 0; z--) buf[u++] = 0x30;
    while (n > 0) buf[u++] = d[--n] as number;
    this.used = u;
    return true;
  }

  value(v: PyJson, depth: number): void {
    if (v === null) this.ascii('null');
    else if (typeof v === 'number') this.float(v);
    else if (typeof v === 'string') this.string(v);
    else if (typeof v === 'bigint') {
      if (v >= 0n && v <= 9007199254740991n) this.uint(Number(v));
      else this.ascii(v.toString());
    } else if (typeof v === 'boolean') this.ascii(v ? 'true' : 'false');
    else if (Array.isArray(v)) {
      const n = v.length;
      if (n === 0) {
        this.ascii('[]');
        return;
      }
      this.byte(0x5b);
      for (let i = 0; i < n; i++) {
        if (i > 0) this.byte(0x2c);
        if (this.indent > 0) this.pad(depth + 1);
        this.value(v[i] as PyJson, depth + 1);
      }
      if (this.indent > 0) this.pad(depth);
      this.byte(0x5d);
    } else {
      const keys = Object.keys(v);
      const n = keys.length;
      if (n === 0) {
        this.ascii('{}');
        return;
      }
      this.byte(0x7b);
      for (let i = 0; i < n; i++) {
        const k = keys[i] as string;
        if (i > 0) this.byte(0x2c);
        if (this.indent > 0) this.pad(depth + 1);
        this.key(k);
        this.value(v[k] as PyJson, depth + 1);
      }
      if (this.indent > 0) this.pad(depth);
      this.byte(0x7d);
    }
  }
}
