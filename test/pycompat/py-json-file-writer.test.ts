import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPyFloat } from '../../src/pycompat/format-py-float.js';
import { PyJsonFileWriter } from '../../src/pycompat/py-json-file-writer.js';
import { tempDir } from '../gym/gym-test-helpers.js';

/** Writes each float on its own line through the writer and returns the lines. */
function written(xs: number[], floats: 'orjson' | 'repr'): string[] {
  const path = join(tempDir(), 'f.txt');
  const fd = openSync(path, 'w');
  const w = new PyJsonFileWriter(fd, 0, floats, false);
  for (const x of xs) {
    w.float(x);
    w.byte(0x0a);
  }
  w.flush();
  closeSync(fd);
  return readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

describe('PyJsonFileWriter.float', () => {
  it('writes the text of formatPyFloat for decimals, random doubles and edge values', () => {
    const decimals = fc
      .tuple(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: 0, max: 12 }))
      .map(([m, k]) => m / 10 ** k);
    const samples = [
      ...fc.sample(decimals, 20_000),
      ...fc.sample(fc.double({ noNaN: false }), 5_000),
      ...fc.sample(fc.double({ min: 1e-5, max: 1e8 }), 5_000),
      0.1 + 0.2,
      1 / 3,
      2 / 3,
      1e-4,
      0.00010000000000000002,
      9999999.999999998,
      1e7,
      1e7 - 0.5,
      123456.78901234,
      2147483647,
      2147483648,
      -2147483649,
      4294967296,
      123456789012345,
      999999999999999,
      0.0001,
      0.00012,
      1234567.5,
      -9999999.99999999,
      0.5,
      -0.5,
      -0,
      0,
      NaN,
      Infinity,
      -Infinity,
      5e-324,
    ];
    for (const floats of ['orjson', 'repr'] as const) {
      expect(written(samples, floats)).toEqual(samples.map((x) => formatPyFloat(x, floats)));
    }
  });
});
