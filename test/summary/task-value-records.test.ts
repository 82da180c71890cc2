import { describe, expect, it } from 'vitest';
import { TaskValueColumn } from '../../src/summary/task-value-column.js';
import { TaskValueRecords } from '../../src/summary/task-value-records.js';

describe('TaskValueRecords', () => {
  it('keeps every kind of record across growth and gives the same column as one filled directly', () => {
    const records = new TaskValueRecords();
    const direct = new TaskValueColumn(['a', 'b', 'c']);
    for (let i = 0; i < 100; i += 1) {
      const trial = i % 3;
      if (i % 10 === 0) {
        records.pushLabel(trial, `label-${i}`);
        direct.pushLabel(trial, `label-${i}`);
        continue;
      }
      const kind = [
        TaskValueColumn.NUMBER,
        TaskValueColumn.FLOAT,
        TaskValueColumn.TRUE,
        TaskValueColumn.MISSING,
      ][i % 4] as number;
      const value = i % 4 < 2 ? (i % 7 === 0 ? NaN : i / 4) : 0;
      records.push(trial, kind, value);
      direct.push(trial, kind, value);
    }
    expect(records.length).toBe(100);
    expect(records.kind(10)).toBe(TaskValueColumn.LABEL);
    expect(records.value(5)).toBe(1.25);
    const copy = records.column(direct.trialIds, true);
    expect(copy.records()).toEqual(direct.records());
    expect(Array.from(copy.codes)).toEqual(direct.codes);
    records.push(0, TaskValueColumn.NUMBER, 1);
    expect(copy.length).toBe(100);
    expect(records.length).toBe(101);
    // the finished column takes the arrays: the records are empty afterwards
    const taken = records.column(direct.trialIds, false);
    expect(taken.length).toBe(101);
    expect(taken.records().slice(0, 100)).toEqual(direct.records());
    expect(taken.value(100)).toBe(1);
    expect(taken.codes).toBeInstanceOf(Int32Array);
    expect(records.length).toBe(0);
    expect(records.column([], false).records()).toEqual([]);
    expect(() => taken.push(0, TaskValueColumn.NUMBER, 2)).toThrow(/complete/);
    // a copy of a column of typed arrays grows again
    const grown = taken.copyWith(taken.trialIds);
    grown.push(0, TaskValueColumn.NUMBER, 2);
    expect(grown.length).toBe(102);
  });

  it('past its first records keeps int32 numbers in 4 bytes and widens, values intact, at the first other number', () => {
    const ints = new TaskValueRecords();
    for (let i = 0; i < 100; i += 1) ints.push(i, TaskValueColumn.NUMBER, i * 1000 - 7);
    ints.push(100, TaskValueColumn.TRUE, 0);
    ints.pushLabel(101, 'x');
    const intColumn = ints.column(['t'], true);
    expect(intColumn.values).toBeInstanceOf(Int32Array);
    expect(intColumn.value(3)).toBe(2993);
    for (const odd of [-0, 0.5, NaN, 2 ** 31, -Infinity]) {
      // the odd number among the first records (plain arrays, then typed), and after them (typed)
      for (const at of [9, 80]) {
        const records = new TaskValueRecords();
        for (let i = 0; i < at; i += 1) records.push(i, TaskValueColumn.NUMBER, i - 4);
        records.push(at, TaskValueColumn.FLOAT, odd);
        for (let i = at + 1; i < 100; i += 1) records.push(i, TaskValueColumn.NUMBER, 3);
        const column = records.column(['t'], false);
        expect(column.values).toBeInstanceOf(Float64Array);
        expect(Object.is(column.value(at), odd)).toBe(true);
        const want = Array.from({ length: 100 }, (_, i) => (i < at ? i - 4 : i === at ? odd : 3));
        expect(Array.from(column.values)).toEqual(want);
      }
    }
  });

  it('a short list gives the same records and values as a long one, odd numbers included', () => {
    for (const odd of [-0, 0.5, NaN, 2 ** 31, -Infinity]) {
      const records = new TaskValueRecords();
      records.push(0, TaskValueColumn.NUMBER, 7);
      records.push(1, TaskValueColumn.FLOAT, odd);
      records.pushLabel(2, 'x');
      const direct = new TaskValueColumn(['a', 'b', 'c']);
      direct.push(0, TaskValueColumn.NUMBER, 7);
      direct.push(1, TaskValueColumn.FLOAT, odd);
      direct.pushLabel(2, 'x');
      const column = records.column(direct.trialIds, false);
      expect(column.records()).toEqual(direct.records());
      expect(Object.is(column.value(1), odd)).toBe(true);
      expect(records.length).toBe(0);
    }
  });
});
