import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPyFloat } from '../../src/pycompat/format-py-float.js';
import { MAX_NUMBER_BYTES, putPyFloat, putSafeInt, putUint } from '../../src/pycompat/py-number-bytes.js';

const buf = new Uint8Array(3 + MAX_NUMBER_BYTES);

/**
 * What a writer puts at a non-zero offset; `<bad>` when it wrote before that offset or more than
 * MAX_NUMBER_BYTES (so that one comparison of the texts checks everything).
 */
function text(write: (buf: Uint8Array, at: number) => number): string {
  buf.fill(0x23);
  const end = write(buf, 3);
  if (buf[0] !== 0x23 || buf[1] !== 0x23 || buf[2] !== 0x23 || end - 3 > MAX_NUMBER_BYTES) return '<bad>';
  return Buffer.from(buf.subarray(3, end)).toString('latin1');
}

describe('putUint / putSafeInt', () => {
  it('write the decimal digits of every digit count up to 2^53 - 1', () => {
    const edges = [0, 1, 9, 10, 99, 100, 2147483647, 2147483648, 4294967296, 9007199254740991];
    for (let p = 1; p <= 1e15; p *= 10) edges.push(p - 1, p, p + 1);
    const ns = [...edges, ...fc.sample(fc.maxSafeNat(), 2000)];
    expect(ns.map((n) => text((b, at) => putUint(b, at, n)))).toEqual(ns.map(String));
    expect(ns.map((n) => text((b, at) => putSafeInt(b, at, -n)))).toEqual(
      ns.map((n) => (n === 0 ? '0' : `-${n}`)),
    );
  });
});

describe('putPyFloat', () => {
  const samples = [
    ...fc.sample(fc.double(), 5000),
    ...fc.sample(fc.double({ min: 1e-5, max: 1e8 }), 5000),
    ...fc
      .sample(
        fc.tuple(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: 0, max: 12 })),
        5000,
      )
      .map(([m, k]) => m / 10 ** k),
    0.0001,
    0.00012,
    1e-5,
    9999999.999999998,
    1e7,
    1e15,
    -1e15,
    999999999999999,
    123456.78901234,
    2 / 3,
    -0,
    0,
    NaN,
    Infinity,
    -Infinity,
    5e-324,
    -1.7976931348623157e308,
  ];

  it('writes the text of formatPyFloat in both styles', () => {
    for (const style of ['orjson', 'repr'] as const) {
      const want = samples.map((x) => formatPyFloat(x, style));
      expect(samples.map((x) => text((b, at) => putPyFloat(b, at, x, style)))).toEqual(want);
    }
  });
});
