import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../src/summary/build-summary.js';
import {
  AggregateNotFoundError,
  closeMatches,
  headlineValue,
  scoresByName,
  summaryScore,
} from '../../src/summary/summary-accessors.js';
import { aggregateRangeScore } from '../../src/summary/aggregate-range-score.js';
import type { AggregateScalarScore } from '../../src/model/summary.js';
import { metric, score, task, view } from './fixtures.js';

const scalar: AggregateScalarScore = {
  name: 'runner.gym.pass@1/accuracy',
  count: null,
  nan_count: 0,
  sum: null,
  mean: null,
  min: null,
  max: null,
  median: null,
  std_dev: null,
  variance: null,
  sample_std_dev: null,
  sample_variance: null,
  score_type: 'scalar',
  value: 0.68,
};

const summaryOf = (...names: string[]) => ({
  scores: { scores: names.map((n) => aggregateRangeScore(n, [0.5], 1)) },
});

describe('§7.7 ordering and extras', () => {
  it('outputs (types then outputs sorted), views, pass@k, then extras unchanged', () => {
    const tasks = [
      task('A', [metric('zz', { b: 'continuous', a: 'discrete' }), metric('aa', { ok: 'boolean' })], {
        v: view('single', ['aa', 'ok']),
      }),
    ];
    const summary = buildSummary({
      tasks,
      scores: [score('A', 'a1', 'zz', { a: 1, b: 1 }), score('A', 'a1', 'aa', { ok: true })],
      extraScores: [scalar],
    });
    expect(summary.scores.scores.map((s) => s.name)).toEqual([
      'aa.ok',
      'zz.a',
      'zz.b',
      'view.v',
      'aa.ok.pass@1',
      'zz.b.pass@1',
      'runner.gym.pass@1/accuracy',
    ]);
    expect(summary.scores.scores.at(-1)).toBe(scalar);
  });

  it('sorts by code point, as Python does (an astral character sorts after U+FFFF)', () => {
    const summary = buildSummary({ scores: [score('A', 'a', 'm', { '\u{1F600}': 1, '\uFFFD': 1, z: 1 })] });
    expect(summary.scores.scores.map((s) => s.name)).toEqual(['m.z', 'm.\uFFFD', 'm.\u{1F600}']);
  });

  it('headlineValue: value for scalar scores, else mean; scoresByName is first-wins', () => {
    expect(headlineValue(scalar)).toBe(0.68);
    expect(headlineValue(aggregateRangeScore('x', [0.25, 0.75], 2))).toBe(0.5);
    const dup = {
      scores: { scores: [aggregateRangeScore('m.s', [0.25], 1), aggregateRangeScore('m.s', [0.75], 1)] },
    };
    expect(scoresByName(dup).get('m.s')?.mean).toBe(0.25);
    expect(summaryScore(dup, 'm.s').mean).toBe(0.25);
  });
});

describe('summaryScore misses (the SDK KeyError text)', () => {
  const miss = (summary: ReturnType<typeof summaryOf>, name: string): AggregateNotFoundError => {
    try {
      summaryScore(summary, name);
    } catch (e) {
      if (e instanceof AggregateNotFoundError) return e;
      throw e;
    }
    throw new Error('no error thrown');
  };

  it('suggests the intended name for a typo', () => {
    const e = miss(summaryOf('gym_reward.reward', 'view.solved'), 'gym_reward.rewrad');
    expect(e.name).toBe('KeyError');
    expect(e.message).toBe(
      "no aggregate named 'gym_reward.rewrad'; did you mean 'gym_reward.reward'? (1 other aggregate in this result)",
    );
    expect(e.suggestions).toEqual(['gym_reward.reward']);
  });

  it.each([
    [20, '(20 other aggregates in this result)'],
    [1, '(1 other aggregate in this result)'],
    [0, null],
  ])('with %i other names the tally reads %j', (extra, expected) => {
    const names = [
      'reward.reward',
      ...Array.from({ length: extra }, (_, i) => `metric_${String(i).padStart(2, '0')}.zzz`),
    ];
    const message = miss(summaryOf(...names), 'reward.rewrad').message;
    expect(message).toContain("'reward.reward'");
    if (expected === null) expect(message).not.toContain('in this result');
    else expect(message).toContain(expected);
  });

  it('names a repeated aggregate once, in suggestions and in the listing', () => {
    const m1 = miss(summaryOf('reward.reward', 'reward.reward', 'view.solved'), 'reward.rewrad').message;
    expect(m1.split("'reward.reward'").length - 1).toBe(1);
    expect(m1).toContain('(1 other aggregate in this result)');
    const m2 = miss(summaryOf('alpha.one', 'alpha.one', 'beta.two'), 'zzzzzz').message;
    expect(m2.split("'alpha.one'").length - 1).toBe(1);
  });

  it('lists the names when nothing is close, up to 10 then "(N more)"', () => {
    const few = miss(summaryOf('gym_reward.reward', 'view.solved'), 'totally_unrelated').message;
    expect(few).toBe(
      "no aggregate named 'totally_unrelated'; available aggregates: 'gym_reward.reward', 'view.solved'",
    );
    const names = Array.from({ length: 25 }, (_, i) => `metric_${String(i).padStart(2, '0')}.zzz`);
    const many = miss(summaryOf(...names), 'qqq').message;
    expect(many).toContain('(15 more)');
    expect(many).toContain('metric_00.zzz');
    expect(many).toContain('metric_09.zzz');
    expect(many).not.toContain('metric_10.zzz');
  });

  it('says so when there are no aggregates at all', () => {
    expect(miss(summaryOf(), 'anything').message).toBe(
      "no aggregate named 'anything': this result has no aggregates at all",
    );
  });
});

describe('closeMatches (difflib.get_close_matches)', () => {
  it.each([
    // Expected lists computed with CPython's difflib.get_close_matches(word, possibilities).
    ['gym_reward.rewrad', ['gym_reward.reward', 'view.solved'], ['gym_reward.reward']],
    [
      'metric_1.zz',
      Array.from({ length: 25 }, (_, i) => `metric_${String(i).padStart(2, '0')}.zzz`),
      ['metric_21.zzz', 'metric_19.zzz', 'metric_18.zzz'],
    ],
    ['appel', ['ape', 'apple', 'peach', 'puppy'], ['apple', 'ape']],
    ['zzzz', ['a', 'b'], []],
  ])('%s → %j', (word, possibilities, expected) => {
    expect(closeMatches(word, possibilities)).toEqual(expected);
  });
});
