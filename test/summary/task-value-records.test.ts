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

  it('keeps int32 numbers in 4 bytes and widens, values intact, at the first other number', () => {
    const ints = new TaskValueRecords();
    for (let i = 0; i < 20; i += 1) ints.push(i, TaskValueColumn.NUMBER, i * 1000 - 7);
    ints.push(20, TaskValueColumn.TRUE, 0);
    ints.pushLabel(21, 'x');
    const intColumn = ints.column(['t'], true);
    expect(intColumn.values).toBeInstanceOf(Int32Array);
    expect(intColumn.value(3)).toBe(2993);
    for (const odd of [-0, 0.5, NaN, 2 ** 31, -Infinity]) {
      const records = new TaskValueRecords();
      for (let i = 0; i < 9; i += 1) records.push(i, TaskValueColumn.NUMBER, i - 4);
      records.push(9, TaskValueColumn.FLOAT, odd);
      records.push(10, TaskValueColumn.NUMBER, 3);
      const column = records.column(['t'], false);
      expect(column.values).toBeInstanceOf(Float64Array);
      expect(Object.is(column.value(9), odd)).toBe(true);
      expect(Array.from(column.values)).toEqual([-4, -3, -2, -1, 0, 1, 2, 3, 4, odd, 3]);
    }
  });
});
