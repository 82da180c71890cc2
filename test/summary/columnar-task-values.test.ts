import { describe, expect, it } from 'vitest';
import { ColumnarTaskValues } from '../../src/summary/columnar-task-values.js';
import { SummaryBuilder } from '../../src/summary/summary-builder.js';
import { TaskValueColumn } from '../../src/summary/task-value-column.js';
import { score } from './fixtures.js';

/** The columns of an untouched entry of a column-backed `task_metric_values`, else null. */
const columnsOf = (values: object, taskId: string) => ColumnarTaskValues.of(values)?.columns(taskId) ?? null;

function built() {
  const builder = new SummaryBuilder(null);
  builder.addScore(score('b', 't1', 'm', { r: 1, l: 'good' }));
  builder.addScore(score('7', 't2', 'm', { r: 0.5 }));
  builder.addScore(score('__proto__', 't3', 'm', { ok: true }));
  return builder.finish();
}

describe('lazy task_metric_values', () => {
  const expected = {
    '7': { 'm.r': [{ trial_id: 't2', value_type: 'number', value: 0.5 }] },
    b: {
      'm.l': [{ trial_id: 't1', value_type: 'label', value: 'good' }],
      'm.r': [{ trial_id: 't1', value_type: 'number', value: 1 }],
    },
    ['__proto__']: { 'm.ok': [{ trial_id: 't3', value_type: 'number', value: true }] },
  };

  it('has the plain shape for enumeration, JSON, structuredClone and spreading', () => {
    const values = built().task_metric_values;
    expect(Object.keys(values)).toEqual(['7', 'b', '__proto__']);
    expect(JSON.parse(JSON.stringify(values))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(JSON.stringify(structuredClone(values))).toBe(JSON.stringify(values));
    expect(JSON.stringify({ ...built().task_metric_values })).toBe(JSON.stringify(values));
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
  });

  it('builds an entry once; assignment and freezing behave as on a plain object', () => {
    const values = built().task_metric_values;
    const b = values['b'];
    expect(values['b']).toBe(b);
    expect(Object.getOwnPropertyDescriptor(values, 'b')).toMatchObject({ value: b, writable: true });
    values['7'] = {};
    expect(values['7']).toEqual({});
    const frozen = Object.freeze(built().task_metric_values);
    expect(frozen['b']).toBe(frozen['b']);
    expect(frozen['b']?.['m.r']?.[0]?.value).toBe(1);
  });

  it('carries its columns itself; copies are plain records', () => {
    expect(ColumnarTaskValues.of(built().task_metric_values)).toBeInstanceOf(ColumnarTaskValues);
    expect(ColumnarTaskValues.of({ ...built().task_metric_values })).toBeNull();
    expect(ColumnarTaskValues.of(structuredClone(built().task_metric_values))).toBeNull();
    expect(
      ColumnarTaskValues.of(JSON.parse(JSON.stringify(built().task_metric_values)) as object),
    ).toBeNull();
  });

  it('exposes the columns of untouched entries only', () => {
    const values = built().task_metric_values;
    const columns = columnsOf(values, 'b');
    expect(columns?.map(([key]) => key)).toEqual(['m.l', 'm.r']);
    const r = columns?.[1]?.[1] as TaskValueColumn;
    expect([r.length, r.kind(0), r.trialId(0), r.value(0)]).toEqual([1, TaskValueColumn.NUMBER, 't1', 1]);
    expect(columnsOf(values, 'nope')).toBeNull();
    expect(columnsOf({ b: {} }, 'b')).toBeNull();
    void values['b'];
    expect(columnsOf(values, 'b')).toBeNull();
  });
});
