import { describe, expect, it } from 'vitest';
import { decodeTaskValueRecord } from '../../src/summary/decode-task-value-record.js';
import { encodeTaskValueRecord } from '../../src/summary/encode-task-value-record.js';
import type { TaskValueRecord } from '../../src/model/summary.js';

const rec = (
  value_type: TaskValueRecord['value_type'],
  value: TaskValueRecord['value'],
): TaskValueRecord => ({
  trial_id: 't',
  value_type,
  value,
});

describe('encodeTaskValueRecord', () => {
  it.each([
    [NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
  ])('escapes %s as %j with value_type number', (value, token) => {
    expect(encodeTaskValueRecord(rec('number', value))).toEqual(rec('number', token));
  });

  it('leaves finite numbers, booleans, labels (even "NaN") and null unchanged', () => {
    for (const r of [rec('number', 0.5), rec('number', true), rec('label', 'NaN'), rec('missing', null)]) {
      expect(encodeTaskValueRecord(r)).toEqual(r);
    }
  });

  it('round-trips through decode losslessly', () => {
    for (const r of [
      rec('number', NaN),
      rec('number', -Infinity),
      rec('label', 'Infinity'),
      rec('number', 2),
    ]) {
      const back = decodeTaskValueRecord(JSON.parse(JSON.stringify(encodeTaskValueRecord(r))));
      expect(back).toEqual({ ok: true, record: r });
    }
  });
});

describe('decodeTaskValueRecord', () => {
  it('value_type number + escape token → float', () => {
    expect(decodeTaskValueRecord({ trial_id: 't', value_type: 'number', value: 'NaN' })).toEqual({
      ok: true,
      record: rec('number', NaN),
    });
  });

  it('without value_type: token string → number, other string → label, null → missing, else number', () => {
    const cases: [unknown, TaskValueRecord][] = [
      ['Infinity', rec('number', Infinity)],
      ['compliant', rec('label', 'compliant')],
      [null, rec('missing', null)],
      [0.25, rec('number', 0.25)],
      [false, rec('number', false)],
    ];
    for (const [value, expected] of cases) {
      expect(decodeTaskValueRecord({ trial_id: 't', value })).toEqual({ ok: true, record: expected });
      expect(decodeTaskValueRecord({ trial_id: 't', value_type: null, value })).toEqual({
        ok: true,
        record: expected,
      });
    }
  });

  it('a label reading "NaN" stays a label when it says so', () => {
    expect(decodeTaskValueRecord({ trial_id: 't', value_type: 'label', value: 'NaN' })).toEqual({
      ok: true,
      record: rec('label', 'NaN'),
    });
  });

  it.each([
    [{ trial_id: 't', value_type: 'number', value: 'abc' }, 'inconsistent_value'],
    [{ trial_id: 't', value_type: 'number', value: null }, 'inconsistent_value'],
    [{ trial_id: 't', value_type: 'label', value: 1 }, 'inconsistent_value'],
    [{ trial_id: 't', value_type: 'label', value: null }, 'inconsistent_value'],
    [{ trial_id: 't', value_type: 'missing', value: 0 }, 'inconsistent_value'],
    [{ trial_id: 't', value_type: 'missing', value: 'NaN' }, 'inconsistent_value'],
    [{ trial_id: 't', value_type: 'bogus', value: 1 }, 'invalid_value_type'],
    [{ trial_id: 't', value: [1] }, 'invalid_value'],
    [{ trial_id: 't' }, 'invalid_value'],
    [{ value: 1 }, 'invalid_trial_id'],
    [{ trial_id: 't', value: 1, extra: 2 }, 'invalid_record'],
    ['nope', 'invalid_record'],
  ])('rejects %j (%s) as data', (raw, code) => {
    const result = decodeTaskValueRecord(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issue.code).toBe(code);
  });
});
