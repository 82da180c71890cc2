import { formatPyFloat } from './format-py-float.js';

/**
 * Bytes a number written by {@link putSafeInt} or {@link putPyFloat} can take: 24 characters at most
 * (`-1.2345678901234567e-308`), and safe ints of up to 16 digits with a sign.
 */
export const MAX_NUMBER_BYTES = 32;

/** 10^k for k = 0…8, for {@link putShortFixed}. */
const POW10 = new Float64Array([1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]);

/** The number of decimal digits of a non-negative integer below 2^53. */
function digitCount(n: number): number {
  if (n < 1e8) {
    if (n < 1e4) return n < 100 ? (n < 10 ? 1 : 2) : n < 1e3 ? 3 : 4;
    return n < 1e6 ? (n < 1e5 ? 5 : 6) : n < 1e7 ? 7 : 8;
  }
  let k = 9;
  for (let p = 1e9; n >= p && k < 16; p *= 10) k++;
  return k;
}

/**
 * Writes the non-negative safe integer `n` in decimal at `buf[at]` and returns the index after it.
 * The digits are counted first and written right to left in place, in int32 arithmetic below 2^31.
 *
 * @example
 * putUint(buf, 0, 1287); // 4, buf starts with "1287"
 */
export function putUint(buf: Uint8Array, at: number, n: number): number {
  const len = digitCount(n);
  let p = at + len;
  if (n < 0x80000000) {
    let i = n | 0;
    do {
      const q = (i / 10) | 0;
      buf[--p] = 0x30 + (i - q * 10);
      i = q;
    } while (i > 0);
  } else {
    let i = n;
    do {
      const q = Math.floor(i / 10);
      buf[--p] = 0x30 + (i - q * 10);
      i = q;
    } while (i > 0);
  }
  return at + len;
}

/** Writes ASCII text `s` at `buf[at]`; returns the index after it. */
function putAscii(buf: Uint8Array, at: number, s: string): number {
  const n = s.length;
  for (let k = 0; k < n; k++) buf[at + k] = s.charCodeAt(k);
  return at + n;
}

/**
 * Writes the safe integer `x` (|x| <= 2^53 - 1; larger ones need `BigInt(x).toString()`) as Python
 * writes the int; returns the index after it.
 */
export function putSafeInt(buf: Uint8Array, at: number, x: number): number {
  if (x >= 0) return putUint(buf, at, x);
  buf[at] = 0x2d;
  return putUint(buf, at + 1, -x);
}

/**
 * Writes a non-integer `x` with 1e-4 <= |x| < 1e7 and at most 8 decimals as its shortest round-trip
 * digits in fixed notation (what `String(x)` gives) without building a string; returns the index
 * after it, or -1 (nothing written) for other values. With m = round(|x|·10^8) and m / 10^8 exactly
 * |x|, dropping m's t trailing decimal zeros gives the integer of k = 8 − t decimals that round-trips
 * with the fewest digits (a k-decimal string that round-trips has m = its integer · 10^(8−k)), and
 * since 10^-k is larger than x's ulp there, no other k-decimal string round-trips, so it is also the
 * closest one.
 */
function putShortFixed(buf: Uint8Array, at: number, x: number): number {
  const a = x < 0 ? -x : x;
  if (!(a >= 1e-4 && a < 1e7)) return -1;
  // if some k <= 8 decimals round-trip, 8 do (the scaled value is then an integer within 0.5 of
  // a·10^8, and dividing it back rounds to a): one test rejects the full-precision values
  let m = Math.round(a * 1e8);
  if (m / 1e8 !== a) return -1;
  let k = 8;
  // m < 10^15 < 2^53: exact integer arithmetic on doubles; m is not a multiple of 10^8 (x is not
  // an integer), so k stays >= 1
  for (let q = Math.floor(m / 10); q * 10 === m; q = Math.floor(m / 10)) {
    m = q;
    k--;
  }
  let u = at;
  if (x < 0) buf[u++] = 0x2d;
  const scale = POW10[k] as number;
  const whole = Math.floor(m / scale);
  u = putUint(buf, u, whole);
  buf[u++] = 0x2e;
  // the k decimals, zero-padded on the left; below 10^8, so int32 arithmetic
  let f = (m - whole * scale) | 0;
  const stop = u;
  u += k;
  for (let p = u; p > stop;) {
    const q = (f / 10) | 0;
    buf[--p] = 0x30 + (f - q * 10);
    f = q;
  }
  return u;
}

/**
 * Writes `x` as {@link formatPyFloat} does (`1.0`, `0.25`, `1e-05` / `1e-5`, …); returns the index
 * after it. Integers below 10^15 and short decimals are written in place; the rest (full-precision
 * doubles, exponents, non-finite values) through `formatPyFloat`. Room: {@link MAX_NUMBER_BYTES}.
 */
export function putPyFloat(buf: Uint8Array, at: number, x: number, style: 'orjson' | 'repr'): number {
  if (Number.isInteger(x) && x > -1e15 && x < 1e15 && !Object.is(x, -0)) {
    const u = putSafeInt(buf, at, x);
    buf[u] = 0x2e;
    buf[u + 1] = 0x30;
    return u + 2;
  }
  const u = putShortFixed(buf, at, x);
  return u >= 0 ? u : putAscii(buf, at, formatPyFloat(x, style));
}
