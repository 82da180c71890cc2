import { describe, expect, it } from 'vitest';
import { usage } from '../../../src/metrics/builtin/usage.js';
import { NO_MEASUREMENTS } from '../make-trial-item.js';
import { runMetric } from './run-metric.js';

describe('usage', () => {
  it('emits measured values (0 kept), omits nulls', async () => {
    const measurements = { ...NO_MEASUREMENTS, prompt_tokens: 80, completion_tokens: 0, runtime_sec: 4.5 };
    expect(await runMetric(usage(), null, {}, { measurements })).toEqual({
      prompt_tokens: 80,
      completion_tokens: 0,
      runtime_sec: 4.5,
    });
  });
  it('declares optional outputs with the right kinds; fields picks a subset in canonical order', () => {
    const specs = usage({ fields: ['cost_usd', 'total_tokens'] }).outputSpec();
    expect(specs.map((s) => [s.name, s.valueSchema, s.required])).toEqual([
      ['total_tokens', 'DiscreteScore', false],
      ['cost_usd', 'ContinuousScore', false],
    ]);
    expect(usage().outputSpec()).toHaveLength(7);
    expect(() => usage({ fields: ['reward' as never] })).toThrow();
  });
  it('nothing measured → no outputs (a completed score)', async () => {
    expect(await runMetric(usage(), 'x', {}, { measurements: NO_MEASUREMENTS })).toEqual({});
  });
});
