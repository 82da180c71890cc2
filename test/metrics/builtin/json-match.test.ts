import { describe, expect, it } from 'vitest';
import { jsonMatch } from '../../../src/metrics/builtin/json-match.js';
import { runMetric } from './run-metric.js';

describe('json_match', () => {
  it('equals: deep equality ignoring key order', async () => {
    expect(
      await runMetric(jsonMatch(), '{"b":[1,2],"a":{"x":null}}', { expected: { a: { x: null }, b: [1, 2] } }),
    ).toEqual({
      score: 1,
      valid_json: 1,
    });
    expect(await runMetric(jsonMatch(), '{"a":1,"b":2}', { expected: { a: 1 } })).toEqual({
      score: 0,
      valid_json: 1,
    });
    expect(await runMetric(jsonMatch(), '[2,1]', { expected: [1, 2] })).toEqual({ score: 0, valid_json: 1 });
  });
  it('contains: reference keys present, array elements found anywhere', async () => {
    const m = jsonMatch({ mode: 'contains' });
    expect(await runMetric(m, '{"a":1,"b":2}', { expected: { a: 1 } })).toEqual({ score: 1, valid_json: 1 });
    expect(
      await runMetric(m, '{"l":[{"id":2,"x":1},{"id":1}]}', { expected: { l: [{ id: 1 }, { id: 2 }] } }),
    ).toEqual({
      score: 1,
      valid_json: 1,
    });
    expect(await runMetric(m, '{"a":2}', { expected: { a: 1 } })).toEqual({ score: 0, valid_json: 1 });
    expect(await runMetric(m, '[1]', { expected: { a: 1 } })).toEqual({ score: 0, valid_json: 1 });
  });
  it('strips a ```json fence by default', async () => {
    const fenced = '```json\n{"a": 1}\n```';
    expect(await runMetric(jsonMatch(), fenced, { expected: { a: 1 } })).toEqual({ score: 1, valid_json: 1 });
    expect(await runMetric(jsonMatch({ stripCodeFence: false }), fenced, { expected: { a: 1 } })).toEqual({
      score: 0,
      valid_json: 0,
    });
  });
  it('invalid or missing answer: both 0', async () => {
    expect(await runMetric(jsonMatch(), '{a:1}', { expected: { a: 1 } })).toEqual({
      score: 0,
      valid_json: 0,
    });
    expect(await runMetric(jsonMatch(), null, { expected: 1 })).toEqual({ score: 0, valid_json: 0 });
  });
  it('scalars compare exactly', async () => {
    expect(await runMetric(jsonMatch(), '"x"', { expected: 'x' })).toEqual({ score: 1, valid_json: 1 });
    expect(await runMetric(jsonMatch(), '1.0', { expected: 1 })).toEqual({ score: 1, valid_json: 1 });
    expect(await runMetric(jsonMatch(), 'true', { expected: 1 })).toEqual({ score: 0, valid_json: 1 });
  });
});
