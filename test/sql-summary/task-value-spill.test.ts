import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { summarizeBundle } from '../../src/bundle/summarize-bundle.js';
import { duckdbBundleSummaryEngine } from '../../src/sql-summary/duckdb-bundle-summary-engine.js';
import { TaskValueSpill } from '../../src/sql-summary/task-value-spill.js';
import { TaskValueColumn } from '../../src/summary/task-value-column.js';
import { writeTrickyBundle } from './write-tricky-bundle.js';

const root = mkdtempSync(join(tmpdir(), 'es-task-value-spill-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('TaskValueSpill', () => {
  it('gives back every record of every task as written: kinds, -0, NaN, ±Infinity, labels, trial ids', () => {
    const spill = TaskValueSpill.open(root);
    try {
      const ids = ['t1', 'tü"2', 't3'];
      const a = new TaskValueColumn(ids);
      a.push(0, TaskValueColumn.NUMBER, -0);
      a.push(1, TaskValueColumn.FLOAT, 1);
      a.push(2, TaskValueColumn.NUMBER, Number.NaN);
      a.push(0, TaskValueColumn.NUMBER, -Infinity);
      a.push(1, TaskValueColumn.TRUE, 0);
      a.push(2, TaskValueColumn.MISSING, 0);
      const b = new TaskValueColumn(ids);
      b.pushLabel(0, 'good');
      b.pushLabel(2, 'ünïcode\n"quoted"');
      const empty = new TaskValueColumn(ids);
      const first = spill.write([
        ['m.a', a],
        ['m.b', b],
        ['m.c', empty],
      ]);
      const other = new TaskValueColumn(['x']);
      other.push(0, TaskValueColumn.FALSE, 0);
      const second = spill.write([['n.x', other]]);

      const back = first();
      expect(back.map(([key]) => key)).toEqual(['m.a', 'm.b', 'm.c']);
      for (const [i, column] of [a, b, empty].entries()) {
        const got = back[i]![1];
        expect(got.records()).toEqual(column.records());
        expect(got.codes).toEqual(column.codes);
        expect(got.trialIds).toEqual(ids);
      }
      expect(Object.is(back[0]![1].values[0], -0)).toBe(true);
      expect(back[0]![1].kind(1)).toBe(TaskValueColumn.FLOAT);
      expect(second()[0]![1].records()).toEqual(other.records());
      // read again: a fresh copy each time
      expect(first()[1]![1].records()).toEqual(b.records());
    } finally {
      spill.close();
      spill.close();
    }
    // the file left its directory as soon as it was open
    expect(readdirSync(root).filter((name) => name.startsWith('evalstream-task-values-'))).toEqual([]);
  });
});

describe('the SQL summary with its task values in a spill file', () => {
  it('writes the same summary.json and stats.json bytes as the in-memory engine', async () => {
    for (const seed of [1, 2, 3]) {
      const src = join(root, `bundle-${seed}`);
      await writeTrickyBundle(src, seed);
      await summarizeBundle(src, { outDir: join(root, `memory-${seed}`) });
      const result = await summarizeBundle(src, {
        outDir: join(root, `spilled-${seed}`),
        summaryEngine: duckdbBundleSummaryEngine({ tmpDir: root, spillTaskValuesAbove: 0 }),
      });
      for (const file of ['summary.json', 'stats.json']) {
        expect(readFileSync(join(root, `spilled-${seed}`, file), 'utf8')).toBe(
          readFileSync(join(root, `memory-${seed}`, file), 'utf8'),
        );
      }
      // the records are still there when read as objects, after the files were written
      const memory = JSON.parse(readFileSync(join(root, `memory-${seed}`, 'summary.json'), 'utf8')) as {
        task_metric_values: Record<string, Record<string, { trial_id: string }[]>>;
      };
      for (const [task, byKey] of Object.entries(memory.task_metric_values)) {
        for (const [key, records] of Object.entries(byKey)) {
          expect(result.summary.task_metric_values[task]?.[key]?.map((r) => r.trial_id)).toEqual(
            records.map((r) => r.trial_id),
          );
        }
      }
    }
  }, 120_000);
});
