import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { SummaryBuilder } from '../../src/summary/summary-builder.js';
import type { TrialError } from '../../src/model/trial.js';
import { metric, score, task } from './fixtures.js';

const error = (type: string): TrialError => ({ type, message: null, traceback: null, occurred_at: null });

describe('§7.8 counts and error rollup', () => {
  it('task_count = tasks passed (or distinct task ids); trial_count = distinct trial ids; score_count = records', () => {
    const scores = [
      score('A', 'x', 'm', { r: 1 }),
      score('A', 'x', 'n', { r: 1 }),
      score('B', 'x', 'm', { r: 1 }),
      score('B', 'y', 'm', { r: 1 }),
    ];
    expect(buildSummary({ scores })).toMatchObject({ task_count: 2, trial_count: 2, score_count: 4 });
    const tasks = ['A', 'B', 'C'].map((id) => task(id, [metric('m', { r: 'continuous' })]));
    expect(buildSummary({ scores, tasks })).toMatchObject({ task_count: 3, trial_count: 2, score_count: 4 });
  });

  it('trial_count stays exact as a live builder grows: thousands of ids, some shared across tasks, bit-table collisions', () => {
    const builder = new SummaryBuilder(null);
    const seen = new Set<string>();
    let added = 0;
    for (const step of [3000, 1, 5000, 20000]) {
      for (const end = added + step; added < end; added++) {
        // every 7th id is reused by a second task; ids repeat within a task too
        const id = `trial-${added % 7 === 0 ? added - (added % 49) : added}`;
        const taskId = `task-${added % 13}`;
        builder.addScore(score(taskId, id, 'm', { r: 1 }));
        seen.add(id);
      }
      // the bit table has ~32 slots per id: with this many ids some unequal ids share a slot
      expect(builder.snapshot().trial_count).toBe(seen.size);
    }
  });

  it('errors are rolled up by type in trial order, regardless of status, duplicates kept', () => {
    const summary = buildSummary({
      scores: [],
      trials: [
        { id: 't1', error: error('Timeout') },
        { id: 't2', error: null },
        { id: 't3', error: error('OOM') },
        { id: 't1', error: error('Timeout') },
      ],
    });
    expect(summary.error_trial_ids).toEqual({ Timeout: ['t1', 't1'], OOM: ['t3'] });
    expect(Object.keys(summary.error_trial_ids)).toEqual(['Timeout', 'OOM']);
    expect(summary.error_count).toBe(3);
  });

  it('no trials → {} and 0', () => {
    expect(buildSummary({ scores: [] })).toMatchObject({
      error_trial_ids: {},
      error_count: 0,
      task_count: 0,
    });
  });

  it('a task id "__proto__" is an ordinary key', () => {
    const summary = buildSummary({ scores: [score('__proto__', 't', 'm', { r: 1 })] });
    expect(Object.keys(summary.task_metric_values)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(summary.task_metric_values)).toBe(Object.prototype);
  });

  it('the builder refuses input after finish()', () => {
    const builder = new SummaryBuilder(null);
    builder.finish();
    expect(() => builder.addScore(score('A', 'a', 'm', { r: 1 }))).toThrow(/after finish/);
  });
});
