import { describe, expect, it } from 'vitest';
import { boolean, continuousScore, discreteScore } from '../../src/metrics/output-specs.js';
import { MetricResultError, validateMetricResult } from '../../src/metrics/validate-metric-result.js';

function failure(result: unknown, specs = [continuousScore('a'), continuousScore('b', { required: false })]) {
  try {
    validateMetricResult(result, specs);
  } catch (e) {
    expect(e).toBeInstanceOf(MetricResultError);
    const err = e as MetricResultError;
    return { code: err.code, type: err.exceptionType, message: err.message };
  }
  throw new Error('expected a failure');
}

/** A metric result of the given (name, value) outputs, in order. */
function outputs(...pairs: [string, unknown][]): { outputs: { name: string; value: unknown }[] } {
  return { outputs: pairs.map(([name, value]) => ({ name, value })) };
}

describe('validateMetricResult', () => {
  it('returns the very same result object, values uncoerced', () => {
    const result = {
      outputs: [
        { name: 'a', value: true },
        { name: 'b', value: ' 2 ' },
      ],
    };
    expect(validateMetricResult(result, [continuousScore('a'), continuousScore('b')])).toBe(result);
    expect(result.outputs[0]?.value).toBe(true);
    expect(result.outputs[1]?.value).toBe(' 2 ');
  });

  it('allows an absent optional output', () => {
    const result = { outputs: [{ name: 'a', value: 1 }] };
    expect(
      validateMetricResult(result, [continuousScore('a'), continuousScore('b', { required: false })]),
    ).toBe(result);
  });

  it('1. duplicates first, sorted and deduplicated', () => {
    const out = failure({
      outputs: [
        { name: 'z', value: 1 },
        { name: 'a', value: 1 },
        { name: 'z', value: 1 },
        { name: 'a', value: null },
        { name: 'z', value: 1 },
      ],
    });
    expect(out).toEqual({
      code: 'duplicate_outputs',
      type: 'ValueError',
      message: "Duplicate metric output names: ['a', 'z']",
    });
  });

  it('2. missing required before undeclared, in declaration order', () => {
    const specs = [continuousScore('y'), continuousScore('x'), continuousScore('o', { required: false })];
    expect(failure({ outputs: [{ name: 'q', value: 1 }] }, specs)).toEqual({
      code: 'missing_required',
      type: 'ValueError',
      message: "Missing required metric outputs: ['y', 'x']",
    });
  });

  it('3. undeclared names in result order', () => {
    expect(
      failure({
        outputs: [
          { name: 'a', value: 1 },
          { name: 'zz', value: 1 },
          { name: 'c', value: 1 },
        ],
      }),
    ).toEqual({
      code: 'undeclared_outputs',
      type: 'ValueError',
      message: "Undeclared metric outputs: ['zz', 'c']",
    });
  });

  it('3 before 4: an undeclared name wins over a bad value', () => {
    expect(
      failure({
        outputs: [
          { name: 'a', value: 'bad' },
          { name: 'c', value: 1 },
        ],
      }).code,
    ).toBe('undeclared_outputs');
  });

  it('4. the first bad value raises a pydantic-style ValidationError', () => {
    const out = failure({ outputs: [{ name: 'a', value: 'abc' }] });
    expect(out.type).toBe('ValidationError');
    expect(out.message).toBe(
      [
        '1 validation error for ContinuousScore',
        "  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='abc', input_type=str]",
        '    For further information visit https://errors.pydantic.dev/2.13/v/float_parsing',
      ].join('\n'),
    );
  });

  it('4. null fails even for an optional output', () => {
    const out = failure({
      outputs: [
        { name: 'a', value: 1 },
        { name: 'b', value: null },
      ],
    });
    expect(out.message.split('\n')[1]).toBe(
      '  Input should be a valid number [type=float_type, input_value=None, input_type=NoneType]',
    );
  });

  it('names the schema and the Python type of the input', () => {
    expect(
      failure({ outputs: [{ name: 'n', value: 1.5 }] }, [discreteScore('n')])
        .message.split('\n')
        .slice(0, 2),
    ).toEqual([
      '1 validation error for DiscreteScore',
      '  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=1.5, input_type=float]',
    ]);
    expect(
      failure({ outputs: [{ name: 'p', value: [1, 'x'] }] }, [boolean('p')]).message.split('\n')[1],
    ).toBe("  Input should be a valid boolean [type=bool_type, input_value=[1, 'x'], input_type=list]");
  });

  it('truncates long input reprs like pydantic (25 + ... + 24 characters)', () => {
    const long = 'x'.repeat(60);
    const line = failure({ outputs: [{ name: 'a', value: long }] }).message.split('\n')[1];
    expect(line).toContain(`input_value='${'x'.repeat(24)}...${'x'.repeat(23)}', input_type=str`);
  });

  it('0. refuses a result that is not {outputs: [...]}, listing every problem', () => {
    expect(failure({ scores: [] })).toEqual({
      code: 'invalid_result',
      type: 'ValidationError',
      message: [
        '2 validation errors for MetricResult',
        'outputs',
        "  Field required [type=missing, input_value={'scores': []}, input_type=dict]",
        '    For further information visit https://errors.pydantic.dev/2.13/v/missing',
        'scores',
        '  Extra inputs are not permitted [type=extra_forbidden, input_value=[], input_type=list]',
        '    For further information visit https://errors.pydantic.dev/2.13/v/extra_forbidden',
      ].join('\n'),
    });
    expect(failure(null).message.split('\n')[1]).toBe(
      '  Input should be a valid dictionary or instance of MetricResult [type=model_type, input_value=None, input_type=NoneType]',
    );
    expect(failure({ outputs: 'x' }).message).toContain('Input should be a valid list');
    const items = failure({
      outputs: [3, { name: 1, value: 1 }, { name: 'a' }, { name: 'a', value: 1, w: 2 }],
    });
    expect(items.message.split('\n').filter((l) => /^outputs/.test(l))).toEqual([
      'outputs.0',
      'outputs.1.name',
      'outputs.2.value',
      'outputs.3.w',
    ]);
  });

  it('refuses a value that is not JSON data after the SDK checks', () => {
    expect(failure({ outputs: [{ name: 'a', value: 10n }] })).toEqual({
      code: 'not_json',
      type: 'ValueError',
      message: "Metric output 'a' is not JSON data: contains a bigint",
    });
  });

  it('checks a result naming every declared output in declaration order like any other', () => {
    const specs = [continuousScore('a'), boolean('b')];
    const inOrder = {
      outputs: [
        { name: 'a', value: 1 },
        { name: 'b', value: 'yes' },
      ],
    };
    expect(validateMetricResult(inOrder, specs)).toBe(inOrder);
    const reversed = {
      outputs: [
        { name: 'b', value: 0 },
        { name: 'a', value: 2 },
      ],
    };
    expect(validateMetricResult(reversed, specs)).toBe(reversed);
    expect(failure(outputs(['a', 1], ['b', 2]), specs).code).toBe('invalid_value');
    expect(
      failure(
        {
          outputs: [
            { name: 'a', value: 1 },
            { name: 'b', value: true, x: 1 },
          ],
        },
        specs,
      ).message,
    ).toContain('outputs.1.x\n  Extra inputs are not permitted');
    expect(failure(outputs(['a', 1], ['b', undefined]), specs).code).toBe('invalid_result');
    expect(
      failure(
        {
          outputs: [
            { name: 'a', value: 1 },
            { name: 'b', value: true },
          ],
          extra: 1,
        },
        specs,
      ).code,
    ).toBe('invalid_result');
    const optional = [
      continuousScore('a', { required: false }),
      boolean('b'),
      discreteScore('c', { required: false }),
    ];
    const partial = { outputs: [{ name: 'b', value: 1 }] };
    expect(validateMetricResult(partial, optional)).toBe(partial);
    expect(failure(outputs(['c', 1.5], ['b', 1]), optional).code).toBe('invalid_value');
    expect(failure({ outputs: [{ name: 'c', value: 1 }] }, optional).message).toBe(
      "Missing required metric outputs: ['b']",
    );
    const twice = [discreteScore('n'), discreteScore('n')];
    expect(failure(outputs(['n', 1], ['n', 1]), twice)).toEqual({
      code: 'duplicate_outputs',
      type: 'ValueError',
      message: "Duplicate metric output names: ['n']",
    });
  });
});
