import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import { encodeTaskValueRecord } from '../../src/summary/encode-task-value-record.js';
import { summarySchema } from '../../src/summary/summary-schema.js';
import { metric, score, task } from './fixtures.js';

/** What the bundle writer produces, minus float formatting: task values in wire form. */
function toWire(summary: ReturnType<typeof buildSummary>): unknown {
  const tmv = Object.fromEntries(
    Object.entries(summary.task_metric_values).map(([t, byKey]) => [
      t,
      Object.fromEntries(Object.entries(byKey).map(([k, recs]) => [k, recs.map(encodeTaskValueRecord)])),
    ]),
  );
  return JSON.parse(JSON.stringify({ ...summary, task_metric_values: tmv }));
}

const built = buildSummary({
  tasks: [task('A', [metric('m', { r: 'continuous', v: 'label' })])],
  scores: [score('A', 'a1', 'm', { r: NaN, v: 'NaN' }), score('A', 'a2', 'm', { r: 1, v: 'ok' })],
  trials: [{ id: 'a1', error: { type: 'X', message: null, traceback: null, occurred_at: null } }],
});

describe('summarySchema', () => {
  it('loads what the builder produced (escape tokens decoded, labels kept)', () => {
    const parsed = summarySchema.parse(toWire(built));
    expect(parsed.scores).toEqual(built.scores);
    expect(parsed.task_metric_values['A']?.['m.r']?.[0]?.value).toBeNaN();
    expect(parsed.task_metric_values['A']?.['m.v']?.[0]).toEqual({
      trial_id: 'a1',
      value_type: 'label',
      value: 'NaN',
    });
    expect(parsed.error_count).toBe(1);
  });

  it('a missing task_metric_values loads as {} (and other defaulted fields with their defaults)', () => {
    const parsed = summarySchema.parse({
      scores: { scores: [] },
      metric_coverage: { m: { r: { total: 2 } } },
    });
    expect(parsed.task_metric_values).toEqual({});
    expect(parsed.metric_coverage['m']?.['r']).toEqual({ total: 2, scored: 0, failed: 0, missing: 0 });
    expect(parsed).toMatchObject({
      task_count: 0,
      trial_count: 0,
      score_count: 0,
      error_trial_ids: {},
      error_count: 0,
    });
  });

  it('rejects extra keys at every level', () => {
    const wire = toWire(built) as Record<string, any>;
    expect(summarySchema.safeParse({ ...wire, extra: 1 }).success).toBe(false);
    const row = { ...wire['scores']['scores'][0], extra: 1 };
    expect(summarySchema.safeParse({ ...wire, scores: { scores: [row] } }).success).toBe(false);
    expect(
      summarySchema.safeParse({ ...wire, metric_coverage: { m: { r: { total: 1, bogus: 0 } } } }).success,
    ).toBe(false);
  });

  it('error_count must equal the number of ids in error_trial_ids', () => {
    const result = summarySchema.safeParse({ error_trial_ids: { X: ['a', 'b'] }, error_count: 1 });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.path).toEqual(['error_count']);
  });

  it('rejects an inconsistent task value record, naming where it is', () => {
    const bad = {
      task_metric_values: { A: { 'm.r': [{ trial_id: 'a', value_type: 'number', value: 'abc' }] } },
    };
    const result = summarySchema.safeParse(bad);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.issues[0]?.path).toEqual(['task_metric_values', 'A', 'm.r', 0, 'value']);
      expect(result.error.issues[0]?.message).toContain('escaped-float tokens');
    }
  });

  it('loads scalar extras (no percentiles) and range rows without score_type (defaults to range)', () => {
    const parsed = summarySchema.parse({
      scores: {
        scores: [
          { name: 'runner.gym.pass@1/accuracy', score_type: 'scalar', nan_count: 0, value: 0.68 },
          { name: 'm.r', count: 0, nan_count: 1 },
        ],
      },
    });
    expect(parsed.scores.scores[0]).toMatchObject({
      score_type: 'scalar',
      value: 0.68,
      count: null,
      mean: null,
    });
    expect(parsed.scores.scores[1]).toMatchObject({
      score_type: 'range',
      percentiles: null,
      histogram: null,
    });
    expect(
      summarySchema.safeParse({
        scores: { scores: [{ name: 's', score_type: 'scalar', nan_count: 0, value: 1, percentiles: null }] },
      }).success,
    ).toBe(false);
  });
});
