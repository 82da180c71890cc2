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
    const column = records.column(direct.trialIds);
    expect(column.records()).toEqual(direct.records());
    expect(column.codes).toEqual(direct.codes);
    records.push(0, TaskValueColumn.NUMBER, 1);
    expect(column.length).toBe(100);
    records.release();
    expect(records.length).toBe(0);
    expect(records.column([]).records()).toEqual([]);
  });
});
