import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/model/json-value.js';
import type { ScoreRecord } from '../../src/model/score-record.js';
import type { Trial } from '../../src/model/trial.js';
import { embedJsonChunks } from '../../src/report/embed-json.js';
import { ReportRows } from '../../src/report/report-rows.js';
import { makeScore, makeTrial } from './fixtures/make-trial.js';

/** Trials with their scores: metric types and outputs first met late, odd values, absent scores. */
function table(): { trial: Trial; scores: ScoreRecord[] }[] {
  const out: { trial: Trial; scores: ScoreRecord[] }[] = [];
  const odd: JsonValue[] = [0.5, NaN, -Infinity, '</script> é ✓', 'x'.repeat(300), true, null, [1], { a: 1 }];
  for (let i = 0; i < 40; i += 1) {
    const task = `task-${Math.floor(i / 7)}`;
    const id = i % 9 === 0 ? `<t${i}> ünï` : `t${i}`;
    const status = i % 5 === 0 ? 'failed' : i % 3 === 0 ? 'partial' : 'completed';
    const trial = makeTrial(task, id, status);
    const scores: ScoreRecord[] = [];
    if (i % 4 !== 1)
      scores.push(makeScore('r', task, id, 'm', [{ name: 'v', value: odd[i % odd.length] as JsonValue }]));
    if (i >= 10) {
      scores.push(
        makeScore(
          'r',
          task,
          id,
          'late',
          [
            { name: 'a', value: i },
            { name: 'a', value: -i },
            ...(i >= 20 ? [{ name: 'b', value: `b${i}` }] : []),
          ],
          i % 6 === 0 ? 'failed' : 'completed',
        ),
      );
      // a second score of a type: only the first of the type fills the row
      if (i % 8 === 0) scores.push(makeScore('r', task, id, 'late', [{ name: 'a', value: 99 }]));
    }
    out.push({ trial, scores });
  }
  return out;
}

const TYPES = ['declared-only', 'late', 'm'];
const KEYS = ['declared-only.x', 'late.a', 'late.b', 'm.v'];

function embedded(rows: ReportRows): string {
  const t = rows.table(TYPES, KEYS);
  return [
    ...embedJsonChunks({ id: t.id, status: t.status, scoreStatus: t.scoreStatus, values: t.values }),
  ].join('');
}

describe('ReportRows', () => {
  it('embeds the same JSON whether rows are sealed as trials pass or left open', () => {
    const open = new ReportRows();
    const sealed = new ReportRows();
    for (const { trial, scores } of table()) {
      const row = open.addTrial(trial);
      for (const score of scores) open.addScore(score, row);
      const same = sealed.addTrial(trial);
      for (const score of scores) sealed.addScore(score, same);
      sealed.seal(same, false);
    }
    expect(open.table(TYPES, KEYS).kind).toBe('plain');
    expect(sealed.table(TYPES, KEYS).kind).toBe('text');
    const text = embedded(sealed);
    expect(text).toBe(embedded(open));
    expect(text).not.toContain('<');
    const parsed = JSON.parse(text) as { id: string[]; status: string; values: JsonValue[][] };
    expect(parsed.id[9]).toBe('<t9> ünï');
    expect(parsed.status).toHaveLength(40);
    expect(parsed.values[1]?.slice(9, 12)).toEqual([null, 10, 11]);
    expect(sealed.taskRuns()).toEqual([0, 7, 1, 7, 2, 7, 3, 7, 4, 7, 5, 5]);
    expect(sealed.valueColumn('late.a')).toEqual(parsed.values[1]);
  });

  it('keeps the values of a sealed row only while asked to', () => {
    const rows = new ReportRows();
    const trials = table();
    for (const [i, { trial, scores }] of trials.entries()) {
      const row = rows.addTrial(trial);
      for (const score of scores) rows.addScore(score, row);
      rows.seal(row, i === 12 || i === 13);
    }
    rows.release(13);
    expect(rows.valueAt('late.a', 12)).toBe(12);
    expect(rows.valueAt('late.a', 13)).toBeUndefined();
    expect(rows.valueAt('late.a', 14)).toBeUndefined();
    expect(() => rows.addScore(makeScore('r', 'task-0', 't1', 'm', []), 1)).toThrow(/row 1 is sealed/);
  });

  it('seals the rows still open when the table is asked for, keeping their values', () => {
    const rows = new ReportRows();
    const [first, second] = table();
    const a = rows.addTrial(first!.trial);
    rows.seal(a, false);
    const b = rows.addTrial(second!.trial);
    for (const score of second!.scores) rows.addScore(score, b);
    const t = rows.table(TYPES, KEYS);
    expect(t.kind).toBe('text');
    expect(JSON.parse(embedded(rows))).toMatchObject({
      id: ['<t0> ünï', 't1'],
      status: 'fc',
      scoreStatus: ['--', '--', '--'],
    });
    expect(rows.valueAt('m.v', b)).toBeUndefined();
  });
});
