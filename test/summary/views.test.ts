import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { summaryScore } from '../../src/summary/summary-accessors.js';
import type { SemanticView } from '../../src/model/task.js';
import { deadTrial, metric, metricFailed, score, task, view } from './fixtures.js';

const metrics = [
  metric('judge', { a: 'continuous', b: 'continuous', ok: 'boolean', tag: 'label' }),
  metric('r', { x: 'continuous' }),
];

function viewRow(v: SemanticView, scores: Parameters<typeof buildSummary>[0]['scores']) {
  return summaryScore(buildSummary({ scores, tasks: [task('T', metrics, { v })] }), 'view.v');
}

describe('§7.5 views', () => {
  const one = [score('T', 't1', 'judge', { a: 0.5, b: 1, ok: true }), score('T', 't1', 'r', { x: 0.25 })];

  it.each([
    ['single', view('single', ['judge', 'a'], ['judge', 'b']), 0.5],
    ['all', view('all', ['judge', 'a'], ['judge', 'b'], ['r', 'x']), 0.25],
    ['any', view('any', ['judge', 'a'], ['r', 'x']), 0.5],
    ['mean', view('mean', ['judge', 'a'], ['judge', 'b'], ['r', 'x']), 1.75 / 3],
    ['weighted_mean', view('weighted_mean', ['judge', 'a', 2], ['judge', 'b']), (2 * 0.5 + 1) / 3],
  ])('%s', (_name, v, expected) => {
    expect(viewRow(v, one)).toMatchObject({ count: 1, nan_count: 0, mean: expected });
  });

  it('booleans read as 1.0/0.0; a label signal is unusable', () => {
    expect(viewRow(view('single', ['judge', 'ok']), one)).toMatchObject({ count: 1, mean: 1 });
    const labelled = [score('T', 't1', 'judge', { a: 1, tag: 'x' })];
    expect(viewRow(view('all', ['judge', 'a'], ['judge', 'tag']), labelled)).toMatchObject({
      count: 0,
      nan_count: 1,
    });
  });

  it('an unusable or non-finite signal makes the opportunity unmeasured (no partial reduction)', () => {
    const v = view('mean', ['judge', 'a'], ['r', 'x']);
    const scores = [
      score('T', 't1', 'judge', { a: 1 }),
      score('T', 't1', 'r', { x: NaN }),
      score('T', 't2', 'judge', { a: 1 }),
      metricFailed('T', 't2', 'r'),
      score('T', 't3', 'judge', { a: 1 }), // no r score at all
      deadTrial('T', 't4', 'judge'),
      deadTrial('T', 't4', 'r'),
      score('T', 't5', 'judge', { a: 0 }),
      score('T', 't5', 'r', { x: 1 }),
    ];
    expect(viewRow(v, scores)).toMatchObject({ count: 1, nan_count: 4, mean: 0.5 });
  });

  it('a zero weight total is unmeasured', () => {
    expect(viewRow(view('weighted_mean', ['judge', 'a', 1], ['judge', 'b', -1]), one)).toMatchObject({
      count: 0,
      nan_count: 1,
    });
  });

  it('duplicate trial ids are paired by occurrence; opportunities = max signal-metric count per trial', () => {
    const v = view('mean', ['judge', 'a'], ['r', 'x']);
    const scores = [
      score('T', 'dup', 'judge', { a: 1 }),
      score('T', 'dup', 'judge', { a: 0 }),
      score('T', 'dup', 'r', { x: 0 }),
      score('T', 'dup', 'r', { x: 0.5 }),
      score('T', 'dup', 'judge', { a: 1 }), // third judge record: no third r record → unmeasured
    ];
    // occurrence 0: mean(1, 0) = 0.5; occurrence 1: mean(0, 0.5) = 0.25; occurrence 2: unmeasured
    expect(viewRow(v, scores)).toMatchObject({ count: 2, nan_count: 1, sum: 0.75, min: 0.25, max: 0.5 });
  });

  it('the total is task-local: trials of tasks without the view are not counted', () => {
    const tasks = [task('T', metrics, { v: view('single', ['r', 'x']) }), task('U', metrics)];
    const summary = buildSummary({
      tasks,
      scores: [
        score('T', 't1', 'r', { x: 1 }),
        score('U', 'u1', 'r', { x: 0 }),
        score('U', 'u2', 'r', { x: 0 }),
      ],
    });
    expect(summaryScore(summary, 'view.v')).toMatchObject({ count: 1, nan_count: 0, mean: 1 });
  });

  it('a trial seen only through another metric is still an opportunity', () => {
    const scores = [score('T', 't1', 'r', { x: 1 }), score('T', 't2', 'judge', { a: 1 })];
    expect(viewRow(view('single', ['r', 'x']), scores)).toMatchObject({ count: 1, nan_count: 1 });
  });

  it('rows are sorted by view name and follow the output rows', () => {
    const summary = buildSummary({
      tasks: [
        task('T', [metric('r', { x: 'discrete' })], {
          zz: view('single', ['r', 'x']),
          aa: view('any', ['r', 'x']),
        }),
      ],
      scores: [score('T', 't1', 'r', { x: 2 })],
    });
    expect(summary.scores.scores.map((s) => s.name)).toEqual(['r.x', 'view.aa', 'view.zz']);
  });
});
