import { describe, expect, it } from 'vitest';
import { addAvgSampleStdDev } from '../../../src/gym/stats/add-avg-sample-std-dev.js';
import {
  computePassMajorityMetrics,
  PassAtKScoreError,
} from '../../../src/gym/stats/compute-pass-majority-metrics.js';
import { computeSubsetMetrics } from '../../../src/gym/stats/compute-subset-metrics.js';
import { highestKMetrics } from '../../../src/gym/stats/highest-k-metrics.js';
import { pySum } from '../../../src/pycompat/py-sum.js';
import { pyTrueDivide } from '../../../src/gym/stats/py-true-divide.js';

const r = (...rewards: (number | bigint | null)[]) => rewards.map((reward) => ({ reward }));

describe('computePassMajorityMetrics (§15)', () => {
  it('binary scores: combinatorial pass@k, pass@1[avg-of-k], per-sample aggregates', () => {
    const { metrics, maxK, scoreNames } = computePassMajorityMetrics([r(1.0, 0.0), r(1.0, 1.0), r(0.0, 0.0)]);
    expect(maxK).toBe(2);
    expect(scoreNames).toEqual(['accuracy']);
    // pass@1: 1 - C(1,1)/C(2,1) = 0.5, 1.0, 1 - C(2,1)/C(2,1) = 0 → 100·1.5/3
    expect(metrics['pass@1/accuracy']).toBe((100 * 1.5) / 3);
    expect(metrics['pass@1[avg-of-1]/accuracy']).toBe((100 * 2) / 3);
    // pass@2: w < k → 1.0 for the first two; 1 - C(2,2)/C(2,2) = 0 for the last
    expect(metrics['pass@2/accuracy']).toBe((100 * 2) / 3);
    expect(metrics['pass@1[avg-of-2]/accuracy']).toBe((100 * 1.5) / 3);
    expect(metrics['per_sample_aggregate']).toEqual({ accuracy: [(100 * 2) / 3, (100 * 1) / 3] });
    expect(Object.keys(metrics)).toEqual([
      'pass@1/accuracy',
      'pass@1[avg-of-1]/accuracy',
      'pass@2/accuracy',
      'pass@1[avg-of-2]/accuracy',
      'per_sample_aggregate',
      'pass@1[avg-of-2]/accuracy/std_dev_across_runs',
      'pass@1[avg-of-2]/accuracy/std_err_across_runs',
    ]);
  });

  it('std across runs: sample std of the per-sample aggregates, and / √k', () => {
    const { metrics } = computePassMajorityMetrics(
      [r(1, 1), r(1, 1), r(1, 0), r(1, 0)].map((t) => t.map((x) => ({ reward: Number(x.reward) }))),
    );
    expect(metrics['per_sample_aggregate']).toEqual({ accuracy: [100, 50] });
    const std = Math.sqrt(((100 - 75) ** 2 + (50 - 75) ** 2) / 1);
    expect(metrics['pass@1[avg-of-2]/accuracy/std_dev_across_runs']).toBe(std);
    expect(metrics['pass@1[avg-of-2]/accuracy/std_err_across_runs']).toBe(std / Math.sqrt(2));
  });

  it('continuous scores: pass@k is the max of the first k', () => {
    const { metrics } = computePassMajorityMetrics([r(0.3, 0.9, 0.5)]);
    expect(metrics['pass@1/accuracy']).toBe(100 * 0.3);
    expect(metrics['pass@2/accuracy']).toBe(100 * 0.9);
    expect(metrics['pass@3/accuracy']).toBe(100 * 0.9);
  });

  it('majority@k counts (answer, score) pairs, averages ties, and adds no_answer', () => {
    const task = [
      { reward: 1.0, ans: 'A' },
      { reward: 0.0, ans: 'B' },
      { reward: 1.0, ans: 'A' },
      { reward: 0.0, ans: null },
    ];
    const { metrics, scoreNames } = computePassMajorityMetrics([task], { answerKey: 'ans' });
    expect(scoreNames).toEqual(['accuracy', 'no_answer']);
    expect(metrics['majority@1/accuracy']).toBe(100);
    expect(metrics['majority@2/accuracy']).toBe(50); // (A,1) and (B,0) tie
    expect(metrics['majority@3/accuracy']).toBe(100);
    expect(metrics['majority@4/accuracy']).toBe(100); // the null answer is not counted
    expect(metrics['majority@4/no_answer']).toBe(0);
    expect(metrics['pass@1/no_answer']).toBe(100 * (1 - 3 / 4));
    expect(metrics['pass@2/accuracy']).toBe(100 * (1 - 1 / 6));
    expect(metrics['pass@4/accuracy']).toBe(100);
  });

  it('a task with no answer at all scores 0 for majority', () => {
    const { metrics } = computePassMajorityMetrics([[{ reward: 1.0 }], [{ reward: 1.0, ans: 'x' }]], {
      answerKey: 'ans',
    });
    expect(metrics['majority@1/accuracy']).toBe(50);
  });

  it('a non-numeric score is an error naming the score, the task and the rollout', () => {
    expect(() => computePassMajorityMetrics([r(1.0), r(1.0, null)])).toThrow(PassAtKScoreError);
    expect(() => computePassMajorityMetrics([r(1.0), r(1.0, null)])).toThrow(
      'score "accuracy" of rollout 1 of task position 1 is null, not a number',
    );
    expect(() => computePassMajorityMetrics([[{}]])).toThrow(
      'score "accuracy" of rollout 0 of task position 0 is missing, not a number',
    );
  });

  it('empty input gives no metrics', () => {
    expect(computePassMajorityMetrics([]).metrics).toEqual({});
  });
});

describe('Gym’s other helpers', () => {
  it('addAvgSampleStdDev: mean over tasks of the per-task sample std of the first k scores', () => {
    const res = computePassMajorityMetrics([r(1.0, 0.0), r(1.0, 1.0)]);
    addAvgSampleStdDev(res.metrics, res.scores, res.scoreNames, res.maxK);
    expect(res.metrics['pass@1[avg-of-2]/accuracy/avg_sample_std_dev']).toBe((Math.SQRT1_2 + 0) / 2);
  });

  it('computeSubsetMetrics groups by the first rollout’s value, drops falsy values and per_sample_aggregate', () => {
    const tasks = [
      [{ reward: 1.0, level: 'easy' }],
      [{ reward: 0.0, level: 'hard' }],
      [{ reward: 1.0, level: '' }],
      [{ reward: 1.0, level: 2n }],
    ];
    expect(computeSubsetMetrics(tasks, 'level')).toEqual({
      'easy/pass@1/accuracy': 100,
      'easy/pass@1[avg-of-1]/accuracy': 100,
      'hard/pass@1/accuracy': 0,
      'hard/pass@1[avg-of-1]/accuracy': 0,
      '2/pass@1/accuracy': 100,
      '2/pass@1[avg-of-1]/accuracy': 100,
    });
  });

  it('highestKMetrics picks the largest k and skips the std suffixes', () => {
    const m = {
      'pass@1/accuracy': 50,
      'pass@4/accuracy': 90,
      'pass@4/no_answer': 5,
      'pass@1[avg-of-4]/accuracy': 70,
      'pass@1[avg-of-4]/accuracy/std_dev_across_runs': 3,
    };
    expect(highestKMetrics(m, 'pass@{k}')).toEqual({ 'pass@4/accuracy': 90, 'pass@4/no_answer': 5 });
    expect(highestKMetrics(m, 'pass@{k}', undefined, ['no_answer'])).toEqual({ 'pass@4/accuracy': 90 });
    expect(highestKMetrics(m, 'pass@1[avg-of-{k}]')).toEqual({ 'pass@1[avg-of-4]/accuracy': 70 });
    expect(highestKMetrics(m, 'majority@{k}')).toEqual({});
  });

  it('pySum follows CPython 3.12+: exact ints, then Neumaier for floats', () => {
    expect(pySum([1n, 2n, 3n])).toBe(6n);
    expect(pySum(Array<number>(10).fill(0.1))).toBe(1);
    expect(pySum([1e16, 1.0, -1e16])).toBe(1);
    expect(pySum([2n, 0.5])).toBe(2.5);
    expect(pySum([])).toBe(0n);
  });

  it('pyTrueDivide rounds big int quotients correctly', () => {
    expect(pyTrueDivide(1n, 3n)).toBe(1 / 3);
    expect(pyTrueDivide(10n ** 20n, 3n)).toBe(1e20 / 3); // 1e20 is exact, so JS's division is the oracle
    expect(pyTrueDivide(2n ** 80n + 1n, 2n ** 80n)).toBe(1);
    expect(pyTrueDivide(-7n, 2n)).toBe(-3.5);
  });
});
