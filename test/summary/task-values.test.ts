import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { metricValues, numericMetricValues, taskOutcomes } from '../../src/summary/summary-accessors.js';
import type { TaskValueRecord } from '../../src/model/summary.js';
import { deadTrial, metric, metricFailed, score, task } from './fixtures.js';

const num = (trial_id: string, value: number | boolean): TaskValueRecord => ({
  trial_id,
  value_type: 'number',
  value,
});
const label = (trial_id: string, value: string): TaskValueRecord => ({
  trial_id,
  value_type: 'label',
  value,
});
const missing = (trial_id: string): TaskValueRecord => ({ trial_id, value_type: 'missing', value: null });

describe('§7.4 task_metric_values with task specs', () => {
  // The SDK docstring example: t1's judge raised, t2 died, model outputs are not keys.
  const tasks = [
    task('task-a', [
      metric('reward', { score: 'continuous' }),
      metric('steps', { count: 'discrete' }),
      metric('usage', { prompt_tokens: 'model' }),
      metric('judge', { verdict: 'label', ok: ['boolean', false] }),
    ]),
    task('task-b', [metric('reward', { score: 'continuous' })]),
    task('task-c', []),
  ];
  const scores = [
    score('task-a', 't0', 'reward', { score: 1.0 }),
    score('task-a', 't0', 'steps', { count: 5 }),
    score('task-a', 't0', 'usage', { prompt_tokens: 1200 }),
    score('task-a', 't0', 'judge', { verdict: 'good', ok: true, undeclared: 1 }),
    metricFailed('task-a', 't1', 'reward'),
    score('task-a', 't1', 'steps', { count: 9 }),
    score('task-a', 't1', 'judge', { verdict: { nested: 1 }, ok: null }),
    deadTrial('task-a', 't2', 'reward'),
    deadTrial('task-a', 't2', 'steps'),
    deadTrial('task-a', 't2', 'judge'),
    score('task-a', 't3', 'reward', { score: 0.0 }),
    score('task-a', 't3', 'steps', { count: 7 }),
    score('task-a', 't3', 'judge', { verdict: 'bad', ok: false }),
  ];
  const values = buildSummary({ scores, tasks }).task_metric_values;

  it('keys: exactly the declared continuous/discrete/boolean/label pairs, sorted by (type, output)', () => {
    expect(Object.keys(values['task-a'] ?? {})).toEqual([
      'judge.ok',
      'judge.verdict',
      'reward.score',
      'steps.count',
    ]);
  });

  it('every listed task has an entry; declared keys exist with empty lists', () => {
    expect(values['task-b']).toEqual({ 'reward.score': [] });
    expect(values['task-c']).toEqual({});
  });

  it('records: dead trial → missing for every key of that metric; metric failure → nothing', () => {
    expect(values['task-a']?.['reward.score']).toEqual([num('t0', 1), missing('t2'), num('t3', 0)]);
    expect(values['task-a']?.['steps.count']).toEqual([
      num('t0', 5),
      num('t1', 9),
      missing('t2'),
      num('t3', 7),
    ]);
  });

  it('records keep booleans as booleans and strings as labels; objects, lists and null leave no record', () => {
    expect(values['task-a']?.['judge.verdict']).toEqual([
      label('t0', 'good'),
      missing('t2'),
      label('t3', 'bad'),
    ]);
    expect(values['task-a']?.['judge.ok']).toEqual([num('t0', true), missing('t2'), num('t3', false)]);
  });

  it('without task specs: keys are the pairs some completed score emitted a number/boolean/string for', () => {
    const s = buildSummary({
      scores: [
        deadTrial('A', 'a0', 'm'),
        score('A', 'a1', 'm', { x: 1, o: { deep: true } }),
        score('A', 'a2', 'm', { y: 'lbl' }),
        deadTrial('A', 'a3', 'm'),
        score('B', 'b1', 'm', { z: null }),
      ],
    }).task_metric_values;
    // The dead trial a0 came before either key was seen and still heads both lists.
    expect(s).toEqual({
      A: {
        'm.x': [missing('a0'), num('a1', 1), missing('a3')],
        'm.y': [missing('a0'), label('a2', 'lbl'), missing('a3')],
      },
      B: {},
    });
  });

  it('lists of one task may differ in length (align by trial_id)', () => {
    expect(values['task-a']?.['reward.score']).toHaveLength(3);
    expect(values['task-a']?.['steps.count']).toHaveLength(4);
  });
});

describe('metricValues / numericMetricValues', () => {
  const records = [
    num('a', 1),
    missing('b'),
    label('c', 'bad'),
    num('d', false),
    num('e', 3),
    num('f', true),
  ];
  it('metricValues keeps every raw value in order', () => {
    expect(metricValues(records)).toEqual([1, null, 'bad', false, 3, true]);
  });
  it('numericMetricValues: numbers as floats, booleans 1.0/0.0, null kept, labels dropped', () => {
    expect(numericMetricValues(records)).toEqual([1, null, 0, 3, 1]);
  });
});

describe('taskOutcomes', () => {
  const summary = {
    task_metric_values: {
      b: { 'm.z': [num('b1', 1)], 'm.a': [] },
      a: { 'n.x': [num('a1', 0)] },
      c: { 'm.z': [] },
    },
  };
  it('unfiltered: every task, sorted by task id then metric name', () => {
    expect(taskOutcomes(summary)).toEqual([
      { task_id: 'a', outcomes: [{ metric_name: 'n.x', trials: [num('a1', 0)] }] },
      {
        task_id: 'b',
        outcomes: [
          { metric_name: 'm.a', trials: [] },
          { metric_name: 'm.z', trials: [num('b1', 1)] },
        ],
      },
      { task_id: 'c', outcomes: [{ metric_name: 'm.z', trials: [] }] },
    ]);
  });
  it('with a name: tasks lacking the key are dropped, tasks with an empty list kept', () => {
    expect(taskOutcomes(summary, 'm.z')).toEqual([
      { task_id: 'b', outcomes: [{ metric_name: 'm.z', trials: [num('b1', 1)] }] },
      { task_id: 'c', outcomes: [{ metric_name: 'm.z', trials: [] }] },
    ]);
    expect(taskOutcomes(summary, 'nothing')).toEqual([]);
  });
});
