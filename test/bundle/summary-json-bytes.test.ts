import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outputLiteralIsFloat } from '../../src/bundle/output-literal-is-float.js';
import { pythonJson } from '../../src/pycompat/python-json.js';
import { summaryJsonBytes } from '../../src/bundle/summary-json-bytes.js';
import { summaryToWire } from '../../src/bundle/to-wire.js';
import type { Summary, TaskValueRecord } from '../../src/model/summary.js';

const record = fc.oneof(
  fc.record({
    trial_id: fc.string(),
    value_type: fc.constant('number' as const),
    value: fc.oneof(fc.double(), fc.integer(), fc.boolean()),
  }),
  fc.record({ trial_id: fc.string(), value_type: fc.constant('label' as const), value: fc.string() }),
  fc.record({ trial_id: fc.string(), value_type: fc.constant('missing' as const), value: fc.constant(null) }),
) as fc.Arbitrary<TaskValueRecord>;

const summary = fc.record({
  task_metric_values: fc.dictionary(
    fc.string({ unit: 'binary' }),
    fc.dictionary(fc.string(), fc.array(record, { maxLength: 4 }), { maxKeys: 3 }),
    { maxKeys: 4 },
  ),
  error_trial_ids: fc.dictionary(fc.string(), fc.array(fc.string(), { maxLength: 3 }), { maxKeys: 2 }),
  task_count: fc.nat(),
});

describe('summaryJsonBytes', () => {
  it('writes the same bytes as pythonJson(summaryToWire(...), {indent: 2}) for any task values', () => {
    fc.assert(
      fc.property(summary, fc.func(fc.constantFrom(true, false, undefined)), (s, floatOf) => {
        const full: Summary = {
          scores: {
            scores: [
              {
                name: 'm.x',
                score_type: 'range',
                count: 1,
                nan_count: 0,
                sum: 1,
                mean: 1,
                min: 1,
                max: 1,
                median: 1,
                std_dev: 0,
                variance: 0,
                sample_std_dev: null,
                sample_variance: null,
                percentiles: null,
                histogram: null,
              },
            ],
          },
          metric_coverage: { m: { x: { total: 1, scored: 1, failed: 0, missing: 0 } } },
          task_metric_values: s.task_metric_values,
          task_count: s.task_count,
          trial_count: 1,
          score_count: 1,
          error_trial_ids: s.error_trial_ids,
          error_count: Object.values(s.error_trial_ids).reduce((n, ids) => n + ids.length, 0),
        };
        const lookup = (t: string, k: string, i: number): boolean | undefined => floatOf(t, k, i);
        const expected = pythonJson(summaryToWire(full, lookup), { indent: 2 });
        expect(Buffer.concat([...summaryJsonBytes(full, lookup)]).toString('latin1')).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('outputLiteralIsFloat', () => {
  const row = {
    outputs: [
      { name: 'reward', value: 1 },
      { name: 'n', value: 3 },
    ],
  };
  it('reads the literal in SDK-formatted lines', () => {
    const line =
      '{"diagnostics": [], "outputs": [{"name": "reward", "value": 1.0}, {"name": "n", "value": 3}], "x": 0.0}';
    expect(outputLiteralIsFloat(row, 0, line)).toBe(true);
    expect(outputLiteralIsFloat(row, 1, line)).toBe(false);
  });
  it('falls back to parsing when the text is not in the SDK format or is ambiguous', () => {
    const compact =
      '{"metadata":{"o":{"name": "reward", "value": 1.0}},"outputs":[{"name":"reward","value":1},{"name":"n","value":3.0}]}';
    expect(outputLiteralIsFloat(row, 0, compact)).toBe(false);
    expect(outputLiteralIsFloat(row, 1, compact)).toBe(true);
    const twice =
      '{"diagnostics": [], "metadata": {"o": {"name": "reward", "value": 1.0}}, "outputs": [{"name": "reward", "value": 1}, {"name": "n", "value": 3}]}';
    expect(outputLiteralIsFloat(row, 0, twice)).toBe(false);
  });
});
