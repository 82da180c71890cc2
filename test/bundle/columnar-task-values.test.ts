import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonJson } from '../../src/pycompat/python-json.js';
import { SummaryAccumulator } from '../../src/bundle/summary-accumulator.js';
import { summaryJsonBytes } from '../../src/bundle/summary-json-bytes.js';
import { summaryToWire } from '../../src/bundle/to-wire.js';
import { TaskValueFloatness } from '../../src/bundle/task-value-floatness.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { TaskSpec } from '../../src/model/task.js';
import { ColumnarTaskValues } from '../../src/summary/columnar-task-values.js';
import { SummaryBuilder } from '../../src/summary/summary-builder.js';

/** The columns of an untouched entry of a column-backed `task_metric_values`, else null. */
const columnsOf = (values: object, taskId: string) => ColumnarTaskValues.of(values)?.columns(taskId) ?? null;

// score lines as the SDK writes them; value literals cover ints, integral floats, exponents, -0,
// non-finite values, booleans, labels, null and objects
const LITERALS = [
  '1',
  '1.0',
  '0',
  '0.0',
  '-0',
  '-0.0',
  '0.5',
  '2e3',
  '1e+16',
  '7',
  'true',
  'false',
  '"ok"',
  'null',
  'NaN',
  '{"k": 1.0}',
];
const line = fc.record({
  task: fc.constantFrom('t1', 't2', '10'),
  trial: fc.constantFrom('a', 'b', 'c'),
  metric: fc.constantFrom('m', 'n.x'),
  status: fc.constantFrom('completed', 'completed', 'partial', 'failed', 'dead'),
  outputs: fc.array(fc.tuple(fc.constantFrom('r', 's', 'x'), fc.constantFrom(...LITERALS)), { maxLength: 3 }),
});
type Line = typeof line extends fc.Arbitrary<infer T> ? T : never;

function text(l: Line): string {
  const diagnostics =
    l.status === 'dead'
      ? '[{"details": {"trial_status": "failed"}, "message": "died", "severity": "error", "source": null}]'
      : '[]';
  const outputs = l.outputs.map(([n, v]) => `{"name": "${n}", "value": ${v}}`).join(', ');
  const status = l.status === 'dead' ? 'failed' : l.status;
  return (
    `{"diagnostics": ${diagnostics}, "id": "x", "metadata": {}, "metric_type": "${l.metric}", "outputs": [${outputs}], ` +
    `"run_id": "R", "status": "${status}", "task_id": "${l.task}", "trial_id": "${l.trial}"}`
  );
}

function parse(t: string): ScoreRecord {
  return JSON.parse(t.replace(/\bNaN\b/g, '"__nan__"'), (_k, v: unknown) =>
    v === '__nan__' ? NaN : v,
  ) as ScoreRecord;
}

const spec = (id: string): TaskSpec => ({
  id,
  intent: '',
  inputs: {},
  reference: {},
  metadata: {},
  views: {},
  metrics: [
    {
      type: 'm',
      outputs: [
        { name: 'r', description: null, value_schema: 'ContinuousScore' },
        { name: 's', description: null, value_schema: 'Label' },
      ],
    },
    { type: 'n.x', outputs: [{ name: 'r', description: null, value_schema: 'DiscreteScore' }] },
  ],
});

describe('columnar task values', () => {
  it('summary.json from the columns equals the record path with TaskValueFloatness (with and without task specs)', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25, size: 'max' }), fc.boolean(), (lines, withSpecs) => {
        const tasks = withSpecs ? [spec('t1'), spec('t2')] : null;
        const texts = lines.map(text);
        const acc = new SummaryAccumulator(tasks);
        // the oracle: plain records and the per-score float tracker
        const builder = new SummaryBuilder(tasks);
        const floats = new TaskValueFloatness();
        for (const t of texts) {
          acc.addScore(parse(t), null, t);
          const row = parse(t);
          builder.addScore(row);
          floats.addScore(row, undefined, t);
        }
        const { summary, isFloat } = acc.finish();
        const got = Buffer.concat([...summaryJsonBytes(summary, isFloat, { newline: true })]).toString(
          'latin1',
        );
        const oracle = builder.finish();
        const materialized = JSON.parse(JSON.stringify(oracle.task_metric_values)) as object;
        const expected =
          pythonJson(summaryToWire(oracle, floats.lookupFor(oracle.task_metric_values)), { indent: 2 }) +
          '\n';
        expect(got).toBe(expected);
        // the generic (record) path over the same summary agrees too, and the records are the same
        expect(pythonJson(summaryToWire(summary, isFloat), { indent: 2 }) + '\n').toBe(expected);
        expect(JSON.parse(JSON.stringify(summary.task_metric_values))).toEqual(materialized);
      }),
      { numRuns: 300 },
    );
  });

  it('builds records on first access; a read or replaced entry is written from its records', () => {
    const tasks = [spec('t1'), spec('t2')];
    const acc = new SummaryAccumulator(tasks);
    for (const t of [
      '{"diagnostics": [], "id": "x", "metadata": {}, "metric_type": "m", "outputs": [{"name": "r", "value": 1.0}], "run_id": "R", "status": "completed", "task_id": "t1", "trial_id": "a"}',
      '{"diagnostics": [], "id": "x", "metadata": {}, "metric_type": "m", "outputs": [{"name": "r", "value": 2}], "run_id": "R", "status": "completed", "task_id": "t2", "trial_id": "b"}',
    ])
      acc.addScore(parse(t), null, t);
    const { summary, isFloat } = acc.finish();
    const values = summary.task_metric_values;
    expect(Object.keys(values)).toEqual(['t1', 't2']);
    expect(columnsOf(values, 't1')).not.toBeNull();
    const t1 = values['t1'];
    expect(t1).toEqual({
      'm.r': [{ trial_id: 'a', value_type: 'number', value: 1 }],
      'm.s': [],
      'n.x.r': [],
    });
    expect(values['t1']).toBe(t1); // built once
    expect(columnsOf(values, 't1')).toBeNull();
    values['t2'] = { 'm.r': [{ trial_id: 'z', value_type: 'label', value: 'edited' }] };
    expect(columnsOf(values, 't2')).toBeNull();
    const written = Buffer.concat([...summaryJsonBytes(summary, isFloat)]).toString('latin1');
    expect(written).toContain('"value": 1.0,'); // t1's float literal survives the materialization
    expect(written).toContain('"trial_id": "z",\n          "value": "edited"');
    expect(isFloat('t1', 'm.r', 0)).toBe(true);
    expect(isFloat('t1', 'm.s', 0)).toBeUndefined();
  });
});
