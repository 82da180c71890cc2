import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { boolean, continuousScore, discreteScore, label, model } from '../../src/metrics/output-specs.js';
import { toMetricDescriptor } from '../../src/metrics/to-metric-descriptor.js';
import type { Metric } from '../../src/model/metric.js';

describe('output spec factories', () => {
  it('set kind, schema name, required (default true) and description (default null)', () => {
    expect(continuousScore('s')).toEqual({
      name: 's',
      description: null,
      kind: 'continuous',
      valueSchema: 'ContinuousScore',
      required: true,
    });
    expect(discreteScore('n', { required: false, description: 'count' })).toEqual({
      name: 'n',
      description: 'count',
      kind: 'discrete',
      valueSchema: 'DiscreteScore',
      required: false,
    });
    expect(boolean('b').valueSchema).toBe('BooleanValue');
    expect(label('l').valueSchema).toBe('Label');
    const schema = z.object({ x: z.number() });
    const m = model('m', schema, { schemaName: 'Thing' });
    expect(m).toMatchObject({ kind: 'model', valueSchema: 'Thing', required: true });
    expect(m.schema).toBe(schema);
    expect(model('m', schema).valueSchema).toBe('Model');
    expect(Object.isFrozen(m)).toBe(true);
  });

  it('refuse an empty name like the SDK', () => {
    expect(() => continuousScore('')).toThrow('metric output name must not be empty');
  });

  it('refuse a model schema name that would read back as a built-in kind', () => {
    expect(() => model('m', z.any(), { schemaName: 'Label' })).toThrow(/built-in value schema/);
  });
});

describe('descriptor conversion', () => {
  const metric: Metric = {
    type: 'harbor_reward',
    outputSpec: () => [
      continuousScore('reward'),
      continuousScore('format_ok', { required: false, description: 'fmt' }),
      model('v', z.any(), { schemaName: 'Verdict' }),
    ],
    computeScores: async () => ({ outputs: [] }),
  };

  it('writes value_schema names and required only when false', () => {
    expect(toMetricDescriptor(metric)).toEqual({
      type: 'harbor_reward',
      outputs: [
        { name: 'reward', description: null, value_schema: 'ContinuousScore' },
        { name: 'format_ok', description: 'fmt', value_schema: 'ContinuousScore', required: false },
        { name: 'v', description: null, value_schema: 'Verdict' },
      ],
    });
  });

  it('refuses duplicate output names, no outputs and an empty type', () => {
    const dup: Metric = { ...metric, outputSpec: () => [label('b'), label('a'), label('b'), label('a')] };
    expect(() => toMetricDescriptor(dup)).toThrow("duplicate metric output names: ['a', 'b']");
    expect(() => toMetricDescriptor({ ...metric, outputSpec: () => [] })).toThrow(/declares no outputs/);
    expect(() => toMetricDescriptor({ ...metric, type: '' })).toThrow(/non-empty/);
  });
});
