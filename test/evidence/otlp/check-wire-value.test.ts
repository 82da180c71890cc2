import { describe, expect, it } from 'vitest';
import { checkWireValue } from '../../../src/evidence/otlp/check-wire-value.js';
import { lengthDelimited as field } from '../../robustness/length-delimited.js';

const str = (bytes: Buffer): Buffer => field(1, bytes); // AnyValue.string_value
const array = (...values: Buffer[]): Buffer => field(5, ...values.map((v) => field(1, v))); // AnyValue.array_value
const kvlist = (key: Buffer, value: Buffer): Buffer => field(6, field(1, field(1, key), field(2, value)));
/** AnyValue.int_value -1: a 10-byte varint. */
const minusOne = Buffer.from([3 << 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
const nested = (depth: number, leaf: Buffer): Buffer => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? array(minusOne, v) : kvlist(Buffer.from('k'), v);
  return v;
};
const check = (value: Buffer, maxDepth?: number) => checkWireValue(value, 0, value.length, maxDepth);

describe('checkWireValue', () => {
  it('passes UTF-8 strings and scalars', () => {
    expect(check(str(Buffer.from('plain ascii')))).toBeNull();
    expect(check(str(Buffer.from('é€😀'.repeat(200))))).toBeNull();
    expect(check(minusOne)).toBeNull();
  });

  it('finds bytes that are not UTF-8 in a string, a nested string or a kvlist key', () => {
    const bad = Buffer.from([0x61, 0xff]);
    let v = str(bad);
    expect(check(v)).toEqual({ code: 'invalid_utf8', offset: v.indexOf(0xff) });
    v = array(minusOne, str(Buffer.from('ok')), str(bad));
    expect(check(v)).toEqual({ code: 'invalid_utf8', offset: v.lastIndexOf(0xff) });
    v = kvlist(bad, str(Buffer.from('ok')));
    expect(check(v)).toEqual({ code: 'invalid_utf8', offset: v.indexOf(0xff) });
  });

  it('counts levels as the decoder does: the bound passes, one more is too deep (depth before UTF-8)', () => {
    expect(check(nested(8, str(Buffer.from('leaf'))), 8)).toBeNull();
    const deep = nested(9, str(Buffer.from([0xff])));
    expect(check(deep, 8)?.code).toBe('nesting_too_deep');
    expect(check(nested(3000, str(Buffer.from('leaf'))))?.code).toBe('nesting_too_deep');
  });

  it('leaves a value too malformed to walk to the decoder', () => {
    const v = array(str(Buffer.from('x')));
    expect(check(v.subarray(0, v.length - 1))).toBeNull();
    expect(check(Buffer.from([(5 << 3) | 2, 0x7f, 0x0a]))).toBeNull();
  });
});
