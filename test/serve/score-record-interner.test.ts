import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/model/score-record.js';
import { ScoreRecordInterner } from '../../src/serve/score-record-interner.js';

const record = (trial: string, metric: string, outputs: ScoreRecord['outputs']): ScoreRecord => ({
  id: `r:t:${trial}:${metric}`,
  run_id: 'r',
  task_id: 't',
  trial_id: trial,
  metric_type: metric,
  status: 'completed',
  outputs,
  diagnostics: [],
  metadata: { row_index: 0, trial_metadata: { trial } },
});

/** JSON text with `-0` visible, to compare records exactly (values and key order). */
const text = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (Object.is(x, -0) ? '-0' : Number.isNaN(x) ? 'NaN' : x));

describe('ScoreRecordInterner', () => {
  it('keeps every record equal (values and key order) while sharing repeated parts', () => {
    const interner = new ScoreRecordInterner();
    const a = [
      record('a', 'm1', [
        { name: 'ok', value: true },
        { name: 'n', value: 2 },
      ]),
      record('a', 'm2', [{ name: 'x', value: 0.5 }]),
    ];
    a[1]!.metadata = { ...a[0]!.metadata };
    const b = [
      record('b', 'm1', [
        { name: 'ok', value: true },
        { name: 'n', value: 2 },
      ]),
    ];
    const keptA = interner.trialScores(a);
    const keptB = interner.trialScores(b);
    expect(text(keptA)).toBe(text(a));
    expect(text(keptB)).toBe(text(b));
    // the same outputs list in two trials is one frozen list of frozen outputs
    expect(keptB[0]!.outputs).toBe(keptA[0]!.outputs);
    expect(Object.isFrozen(keptA[0]!.outputs)).toBe(true);
    expect(Object.isFrozen(keptA[0]!.outputs[0])).toBe(true);
    expect(() => (keptA[0]!.outputs as unknown[]).push({})).toThrow(TypeError);
    // equal metadata within a trial is shared, not across trials
    expect(keptA[1]!.metadata).toBe(keptA[0]!.metadata);
    expect(keptB[0]!.metadata).not.toBe(keptA[0]!.metadata);
    // empty diagnostics are one frozen list; the input records are not changed
    expect(keptA[0]!.diagnostics).toBe(keptB[0]!.diagnostics);
    expect(Object.isFrozen(keptA[0]!.diagnostics)).toBe(true);
    expect(Object.isFrozen(a[0]!.outputs)).toBe(false);
  });

  it('keeps -0 apart from 0, 1 apart from "1", NaN as NaN; object values and extra keys are not shared', () => {
    const interner = new ScoreRecordInterner();
    const first = interner.trialScores([
      record('a', 'm', [
        { name: 'v', value: 0 },
        { name: 'w', value: 1 },
        { name: 'z', value: Number.NaN },
      ]),
    ]);
    const second = interner.trialScores([
      record('b', 'm', [
        { name: 'v', value: -0 },
        { name: 'w', value: '1' },
        { name: 'z', value: Number.NaN },
      ]),
    ]);
    expect(Object.is(second[0]!.outputs[0]!.value, -0)).toBe(true);
    expect(second[0]!.outputs[1]!.value).toBe('1');
    expect(Number.isNaN(second[0]!.outputs[2]!.value)).toBe(true);
    expect(second[0]!.outputs[2]).toBe(first[0]!.outputs[2]);
    const label = { label: 'x' };
    const odd = { name: 'o', value: 1, extra: true } as unknown as ScoreRecord['outputs'][number];
    const kept = interner.trialScores([record('c', 'm', [{ name: 'l', value: label }, odd])]);
    expect(kept[0]!.outputs[0]).toEqual({ name: 'l', value: label });
    expect(Object.isFrozen(kept[0]!.outputs[0])).toBe(false);
    expect(kept[0]!.outputs[1]).toBe(odd);
  });

  it('keeps non-empty diagnostics as they are', () => {
    const interner = new ScoreRecordInterner();
    const r = record('a', 'm', []);
    r.diagnostics = [{ severity: 'warning', message: 'm', source: null, details: {} }];
    expect(interner.trialScores([r])[0]!.diagnostics).toBe(r.diagnostics);
  });
});
