import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { deadTrial, metric, metricFailed, score, task } from './fixtures.js';

describe('§7.3 coverage', () => {
  it('failed = dead trials + metric failures; scored = any value (NaN, label, filler 0.0); missing = the rest', () => {
    const tasks = [task('A', [metric('m', { r: ['continuous', false] })])];
    const summary = buildSummary({
      tasks,
      scores: [
        score('A', 'a1', 'm', { r: NaN }),
        score('A', 'a2', 'm', { r: 'n/a' }),
        score('A', 'a3', 'm', { r: 0.0 }),
        score('A', 'a4', 'm', { r: null }),
        score('A', 'a5', 'm', {}),
        deadTrial('A', 'a6', 'm'),
        metricFailed('A', 'a7', 'm'),
      ],
    });
    expect(summary.metric_coverage['m']?.['r']).toEqual({ total: 7, scored: 4, failed: 2, missing: 1 });
  });

  it('is keyed metric type → output, both sorted', () => {
    const tasks = [
      task('A', [metric('zeta', { b: 'continuous', a: 'continuous' }), metric('alpha', { x: 'label' })]),
    ];
    const summary = buildSummary({ tasks, scores: [] });
    expect(Object.keys(summary.metric_coverage)).toEqual(['alpha', 'zeta']);
    expect(Object.keys(summary.metric_coverage['zeta'] ?? {})).toEqual(['a', 'b']);
    expect(summary.metric_coverage['alpha']?.['x']).toEqual({ total: 0, scored: 0, failed: 0, missing: 0 });
  });
});
