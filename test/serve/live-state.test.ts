import { describe, expect, it } from 'vitest';
import type { ScoredTrial } from '../../src/model/scored-trial.js';
import { LiveState } from '../../src/serve/live-state.js';
import { makeScore, makeTrial } from '../report/fixtures/make-trial.js';
import { summaryOfKept } from './file-summary.js';

function scored(task: string, id: string, value: number, output: string | null = null): ScoredTrial {
  const trial = makeTrial(task, id, 'completed');
  trial.output = { output_text: output, response: null, metadata: {} };
  return {
    item: { trial, evidence: null, task: null, origin: { file: 'otlp-live' } },
    scores: [makeScore('r1', task, id, 'm', [{ name: 'v', value }], 'completed')],
    task: { id: task, intent: '', inputs: {}, reference: {}, metrics: [], views: {}, metadata: {} },
  };
}

describe('LiveState kept in a spill file', () => {
  it('gives back each trial’s latest version in first-scored order, numbers as they were', () => {
    const state = new LiveState(null);
    const values = [0.5, 1e-300, -0, Infinity, NaN];
    values.forEach((v, i) => state.put(`key\u0000t${i}`, scored('T', `t${i}`, v, `out ${i}`), 'ended'));
    expect(state.put('key\u0000t1', scored('T', 't1', 0.25, 'again'), 'late-spans')).toBe(2);
    const trials = [...state.eachFinalTrial()];
    expect(trials.map((t) => t.item.trial.id)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(trials.map((t) => t.scores[0]?.outputs[0]?.value)).toEqual([0.5, 0.25, -0, Infinity, NaN]);
    expect(trials[1]?.item.trial.output?.output_text).toBe('again');
    expect(state.trialJson('t1')).toMatchObject({ trial_id: 't1', version: 2, completion: 'late-spans' });
    expect(state.trialJson('t3')).toMatchObject({ version: 1, completion: 'ended' });
    expect(state.trialJson('nope')).toBeUndefined();
    // the summary after a re-scoring is that of the latest versions
    expect(JSON.stringify(state.summary())).toBe(JSON.stringify(summaryOfKept(trials)));
    state.close();
    expect(state.size).toBe(0);
    expect([...state.eachFinalTrial()]).toEqual([]);
  });

  it('keeps thousands of trials with the same summary as building it from them directly', () => {
    const state = new LiveState(null);
    const all: ScoredTrial[] = [];
    for (let i = 0; i < 3000; i++) {
      const trial = scored(`task-${i % 37}`, `trial-${i}`, (i % 11) / 10, 'x'.repeat(i % 500));
      all.push(trial);
      state.put(`key\u0000trial-${i}`, trial, 'ended');
      if (i === 1500) state.summary(); // fed as trials pass from here on
    }
    expect(state.size).toBe(3000);
    expect(JSON.stringify(state.summary())).toBe(JSON.stringify(summaryOfKept(all)));
    expect([...state.eachFinalTrial()].map((t) => t.item.trial.output?.output_text?.length)).toEqual(
      all.map((t) => t.item.trial.output?.output_text?.length),
    );
    state.close();
  });

  it('writes a task spec shared by its trials once, and keeps a trial’s own spec when it differs', () => {
    const state = new LiveState(null);
    const first = scored('T', 'a', 1);
    const second = { ...scored('T', 'b', 2), task: first.task };
    const own = scored('T', 'c', 3);
    own.task = { ...own.task, metadata: { own: true } };
    for (const t of [first, second, own]) state.put(`key\u0000${t.item.trial.id}`, t, 'ended');
    const [a, b, c] = [...state.eachFinalTrial()];
    expect(a?.task).toEqual(first.task);
    expect(b?.task).toEqual(first.task);
    expect(c?.task.metadata).toEqual({ own: true });
    state.close();
  });
});
