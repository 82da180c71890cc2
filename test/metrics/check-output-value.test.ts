import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boolean, continuousScore, discreteScore, label, model } from '../../src/metrics/output-specs.js';
import { checkOutputValue } from '../../src/metrics/check-output-value.js';

// Cell = the coerced value for "ok", or the pydantic error type for "reject".
type Cell = { ok: unknown } | { reject: string };
type Row = [raw: unknown, continuous: Cell, discrete: Cell, boolean: Cell, label: Cell];

const ok = (v: unknown): Cell => ({ ok: v });
const no = (t: string): Cell => ({ reject: t });

// Spec §3.3 coercion table, one line per raw value, every column checked.
const TABLE: Row[] = [
  [1, ok(1), ok(1), ok(true), no('string_type')],
  [0, ok(0), ok(0), ok(false), no('string_type')],
  [2, ok(2), ok(2), no('bool_parsing'), no('string_type')],
  [-1, ok(-1), ok(-1), no('bool_parsing'), no('string_type')],
  [1.5, ok(1.5), no('int_from_float'), no('bool_type'), no('string_type')],
  // 2.0 is the JS number 2: Python's float 2.0 and int 2 agree on every column except boolean,
  // where both are refused (bool_parsing), so the row holds either way.
  [2.0, ok(2), ok(2), no('bool_parsing'), no('string_type')],
  [true, ok(1), ok(1), ok(true), no('string_type')],
  [false, ok(0), ok(0), ok(false), no('string_type')],
  ['1.0', ok(1), ok(1), no('bool_parsing'), ok('1.0')],
  ['0.9', ok(0.9), no('int_parsing'), no('bool_parsing'), ok('0.9')],
  [' 2 ', ok(2), ok(2), no('bool_parsing'), ok(' 2 ')],
  ['3', ok(3), ok(3), no('bool_parsing'), ok('3')],
  ['1', ok(1), ok(1), ok(true), ok('1')],
  ['0', ok(0), ok(0), ok(false), ok('0')],
  ['true', no('float_parsing'), no('int_parsing'), ok(true), ok('true')],
  ['yes', no('float_parsing'), no('int_parsing'), ok(true), ok('yes')],
  ['on', no('float_parsing'), no('int_parsing'), ok(true), ok('on')],
  ['off', no('float_parsing'), no('int_parsing'), ok(false), ok('off')],
  ['no', no('float_parsing'), no('int_parsing'), ok(false), ok('no')],
  ['NaN', ok(NaN), no('int_parsing'), no('bool_parsing'), ok('NaN')],
  ['nan', ok(NaN), no('int_parsing'), no('bool_parsing'), ok('nan')],
  ['inf', ok(Infinity), no('int_parsing'), no('bool_parsing'), ok('inf')],
  ['-Infinity', ok(-Infinity), no('int_parsing'), no('bool_parsing'), ok('-Infinity')],
  [NaN, ok(NaN), no('finite_number'), no('bool_type'), no('string_type')],
  [Infinity, ok(Infinity), no('finite_number'), no('bool_type'), no('string_type')],
  [-Infinity, ok(-Infinity), no('finite_number'), no('bool_type'), no('string_type')],
  ['', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('')],
  ['abc', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('abc')],
  [null, no('float_type'), no('int_type'), no('bool_type'), no('string_type')],
  [undefined, no('float_type'), no('int_type'), no('bool_type'), no('string_type')],
  [[1], no('float_type'), no('int_type'), no('bool_type'), no('string_type')],
  [[], no('float_type'), no('int_type'), no('bool_type'), no('string_type')],
  [{ a: 1 }, no('float_type'), no('int_type'), no('bool_type'), no('string_type')],
  [{}, no('float_type'), no('int_type'), no('bool_type'), no('string_type')],
  // pydantic's other boolean words: ASCII case-insensitive, never trimmed.
  ['t', no('float_parsing'), no('int_parsing'), ok(true), ok('t')],
  ['f', no('float_parsing'), no('int_parsing'), ok(false), ok('f')],
  ['y', no('float_parsing'), no('int_parsing'), ok(true), ok('y')],
  ['n', no('float_parsing'), no('int_parsing'), ok(false), ok('n')],
  ['false', no('float_parsing'), no('int_parsing'), ok(false), ok('false')],
  ['TRUE', no('float_parsing'), no('int_parsing'), ok(true), ok('TRUE')],
  ['Yes', no('float_parsing'), no('int_parsing'), ok(true), ok('Yes')],
  ['OFF', no('float_parsing'), no('int_parsing'), ok(false), ok('OFF')],
  [' true', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok(' true')],
  [' 1', ok(1), ok(1), no('bool_parsing'), ok(' 1')],
  ['yess', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('yess')],
  // Python/Rust number syntax corners.
  ['1_000', ok(1000), ok(1000), no('bool_parsing'), ok('1_000')],
  ['1__0', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('1__0')],
  ['_1', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('_1')],
  ['+5', ok(5), ok(5), no('bool_parsing'), ok('+5')],
  ['-0', ok(-0), ok(0), no('bool_parsing'), ok('-0')],
  ['007', ok(7), ok(7), no('bool_parsing'), ok('007')],
  ['1e3', ok(1000), no('int_parsing'), no('bool_parsing'), ok('1e3')],
  ['1.', ok(1), no('int_parsing'), no('bool_parsing'), ok('1.')],
  ['.5', ok(0.5), no('int_parsing'), no('bool_parsing'), ok('.5')],
  ['2.000', ok(2), ok(2), no('bool_parsing'), ok('2.000')],
  ['-3.0', ok(-3), ok(-3), no('bool_parsing'), ok('-3.0')],
  ['0x10', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('0x10')],
  ['+-1', no('float_parsing'), no('int_parsing'), no('bool_parsing'), ok('+-1')],
  ['INFINITY', ok(Infinity), no('int_parsing'), no('bool_parsing'), ok('INFINITY')],
  ['\u00a04\n', ok(4), ok(4), no('bool_parsing'), ok('\u00a04\n')],
  [-0.0, ok(-0), ok(-0), ok(false), no('string_type')],
  [1e300, ok(1e300), ok(1e300), no('bool_type'), no('string_type')],
];

const SPECS = [continuousScore('v'), discreteScore('v'), boolean('v'), label('v')] as const;
const KINDS = ['continuous', 'discrete', 'boolean', 'label'] as const;

describe('checkOutputValue: the §3.3 coercion table', () => {
  for (const [raw, ...cells] of TABLE) {
    cells.forEach((cell, k) => {
      const name = `${KINDS[k]} ← ${typeof raw === 'string' ? JSON.stringify(raw) : Array.isArray(raw) ? `[${String(raw)}]` : typeof raw === 'object' && raw !== null ? JSON.stringify(raw) : String(raw)}`;
      it(name, () => {
        const got = checkOutputValue(raw, SPECS[k] as (typeof SPECS)[number]);
        if ('ok' in cell) {
          expect(got).toEqual({ ok: true, coerced: cell.ok });
          if (typeof cell.ok === 'number')
            expect(Object.is((got as { coerced: unknown }).coerced, cell.ok) || cell.ok === 0).toBe(true);
        } else {
          expect(got.ok).toBe(false);
          expect(got.ok === false && got.errorType).toBe(cell.reject);
        }
      });
    });
  }

  it('gives pydantic messages', () => {
    expect(checkOutputValue('abc', continuousScore('v'))).toEqual({
      ok: false,
      errorType: 'float_parsing',
      message: 'Input should be a valid number, unable to parse string as a number',
    });
    expect(checkOutputValue(1.5, discreteScore('v'))).toMatchObject({
      message: 'Input should be a valid integer, got a number with a fractional part',
    });
    expect(checkOutputValue(2, boolean('v'))).toMatchObject({
      message: 'Input should be a valid boolean, unable to interpret input',
    });
    expect(checkOutputValue(1, label('v'))).toMatchObject({ message: 'Input should be a valid string' });
  });

  it('keeps very long integer strings as bigint and refuses more than 4300 digits', () => {
    expect(checkOutputValue('123456789012345678901234567890', discreteScore('v'))).toEqual({
      ok: true,
      coerced: 123456789012345678901234567890n,
    });
    expect(checkOutputValue('9'.repeat(4301), discreteScore('v'))).toMatchObject({
      errorType: 'int_parsing_size',
    });
    expect(checkOutputValue('9'.repeat(4300), discreteScore('v')).ok).toBe(true);
  });
});

describe('checkOutputValue: model outputs', () => {
  const spec = model('verdict', z.object({ ok: z.boolean() }), { schemaName: 'Verdict' });
  it('accepts what the schema accepts and keeps the parsed value', () => {
    expect(checkOutputValue({ ok: true }, spec)).toEqual({ ok: true, coerced: { ok: true } });
  });
  it('refuses null even when the schema would accept it', () => {
    const anything = model('x', z.any(), { schemaName: 'Anything' });
    expect(checkOutputValue(null, anything)).toEqual({
      ok: false,
      errorType: 'model_type',
      message: 'Input should be a valid dictionary or instance of Anything',
    });
  });
  it('reports the first zod issue with its path', () => {
    const got = checkOutputValue({ ok: 'yes' }, spec);
    expect(got.ok).toBe(false);
    expect(got.ok === false && got.loc).toBe('ok');
    expect(got.ok === false && got.errorType).toBe('invalid_type');
  });
  it('accepts any non-null value when no schema is known (spec rebuilt from a descriptor)', () => {
    const bare = {
      name: 'x',
      description: null,
      kind: 'model',
      valueSchema: 'Custom',
      required: true,
    } as const;
    expect(checkOutputValue([1, 2], bare)).toEqual({ ok: true, coerced: [1, 2] });
    expect(checkOutputValue(undefined, bare).ok).toBe(false);
  });
});
