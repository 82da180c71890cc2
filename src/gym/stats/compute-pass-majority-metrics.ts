import type { PyJson } from '../../pycompat/py-json.js';
import { compareCodePoints } from '../../pycompat/compare-code-points.js';
import { pySum, type PyNumber } from '../../pycompat/py-sum.js';
import { pyTrueDivide } from './py-true-divide.js';

/** One rollout as the pass@k helpers see it: field name → value (`bigint` = Python int). */
export type PassAtKRollout = Readonly<Record<string, PyJson>>;

/** Options of {@link computePassMajorityMetrics} (Gym's `score_fn` and `answer_key`). */
export interface PassMajorityOptions {
  /** Named scores of a rollout; default `{ accuracy: rollout.reward }`. */
  scoreFn?: (rollout: PassAtKRollout) => Record<string, PyJson>;
  /** Field holding the extracted answer; enables `majority@k` and the `no_answer` score. */
  answerKey?: string | undefined;
}

/** What {@link computePassMajorityMetrics} returns (Gym: `metrics, all_score_dicts, score_names, max_k`). */
export interface PassMajorityResult {
  metrics: Record<string, number | Record<string, number[]>>;
  scores: Map<string, PyNumber>[][];
  scoreNames: string[];
  maxK: number;
}

/** Thrown when a score is not a number (Python would raise `TypeError`). */
export class PassAtKScoreError extends Error {
  constructor(
    readonly task: number,
    readonly position: number,
    readonly scoreName: string,
    readonly value: PyJson | undefined,
  ) {
    super(
      `score "${scoreName}" of rollout ${position} of task position ${task} is ${describe(value)}, not a number`,
    );
    this.name = 'PassAtKScoreError';
  }
}

function describe(v: PyJson | undefined): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `the ${typeof v} ${JSON.stringify(v)}`;
}

/** Python's `math.comb` as a bigint. */
function comb(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  const kk = Math.min(k, n - k);
  for (let i = 1; i <= kk; i++) r = (r * BigInt(n - kk + i)) / BigInt(i);
  return r;
}

function isZero(v: PyNumber): boolean {
  return typeof v === 'bigint' ? v === 0n : v === 0;
}

function isBinaryValue(v: PyNumber): boolean {
  return typeof v === 'bigint' ? v === 0n || v === 1n : v === 0 || v === 1;
}

/** Python `max()` over a non-empty list: the first of the largest values. */
function pyMax(vals: PyNumber[]): PyNumber {
  let best = vals[0] as PyNumber;
  for (let i = 1; i < vals.length; i++) {
    const v = vals[i] as PyNumber;
    if (v > best) best = v;
  }
  return best;
}

/** A hashable key equal for Python-equal numbers/strings (1 == 1.0 == True). */
function hashKey(v: PyJson | PyNumber): string {
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'boolean') return v ? 'n1' : 'n0';
  if (typeof v === 'bigint') return `n${v}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `n${BigInt(v)}` : `n${v}`;
  throw new TypeError(`unhashable answer ${JSON.stringify(v)}`);
}

function toScore(task: number, pos: number, name: string, v: PyJson | undefined): PyNumber {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  throw new PassAtKScoreError(task, pos, name, v);
}

const pct = (s: PyNumber, n: number): number => (100.0 * Number(s)) / n;

/**
 * Gym's `compute_pass_majority_metrics` (reward_profile.py), bit for bit with Python's number rules:
 * for k = 1..k_max and each score name (sorted), `pass@k/name` (combinatorial for 0/1 scores, else
 * max of the first k), `pass@1[avg-of-k]/name`, `majority@k/name` (with `answerKey`), then
 * `per_sample_aggregate` and, for k ≥ 2, `…/std_dev_across_runs` and `…/std_err_across_runs`.
 * Values are percentages. Ints are `bigint`, floats `number` (they sum differently in Python).
 *
 * @example
 * computePassMajorityMetrics([[{ reward: 1 }, { reward: 0 }]]).metrics['pass@1/accuracy']; // 50
 */
export function computePassMajorityMetrics(
  tasks: readonly (readonly PassAtKRollout[])[],
  options: PassMajorityOptions = {},
): PassMajorityResult {
  if (tasks.length === 0) return { metrics: {}, scores: [], scoreNames: [], maxK: 0 };
  const scoreFn = options.scoreFn ?? ((r: PassAtKRollout) => ({ accuracy: r['reward'] as PyJson }));
  const answerKey = options.answerKey;
  let maxK = 0;
  for (const t of tasks) maxK = Math.max(maxK, t.length);
  const metrics: Record<string, number | Record<string, number[]>> = {};

  const allScores: Map<string, PyNumber>[][] = [];
  const allAnswers: (PyJson | undefined)[][] = [];
  tasks.forEach((rollouts, ti) => {
    const taskScores: Map<string, PyNumber>[] = [];
    const taskAnswers: (PyJson | undefined)[] = [];
    rollouts.forEach((r, ri) => {
      const raw = scoreFn(r);
      const scores = new Map<string, PyNumber>();
      for (const [k, v] of Object.entries(raw)) scores.set(k, toScore(ti, ri, k, v));
      if (answerKey !== undefined) {
        const answer = r[answerKey];
        taskAnswers.push(answer);
        scores.set('no_answer', answer === null || answer === undefined ? 1n : 0n);
      }
      taskScores.push(scores);
    });
    allScores.push(taskScores);
    if (answerKey !== undefined) allAnswers.push(taskAnswers);
  });

  const nameSet = new Set<string>();
  for (const ts of allScores) for (const s of ts) for (const k of s.keys()) nameSet.add(k);
  const scoreNames = [...nameSet].sort(compareCodePoints);

  for (let k = 1; k <= maxK; k++) {
    for (const name of scoreNames) {
      const passValues: PyNumber[] = [];
      for (const ts of allScores) {
        const vals: PyNumber[] = [];
        for (const s of ts) if (s.has(name)) vals.push(s.get(name) as PyNumber);
        if (vals.length === 0 || k > vals.length) continue;
        if (vals.every(isBinaryValue)) {
          const n = vals.length;
          const wrong = vals.filter(isZero).length;
          if (wrong < k) passValues.push(1.0);
          else passValues.push(1.0 - pyTrueDivide(comb(wrong, k), comb(n, k)));
        } else {
          passValues.push(pyMax(vals.slice(0, k)));
        }
      }
      if (passValues.length > 0) metrics[`pass@${k}/${name}`] = pct(pySum(passValues), passValues.length);

      const avgValues: number[] = [];
      for (const ts of allScores) {
        const vals: PyNumber[] = [];
        for (const s of ts.slice(0, k)) if (s.has(name)) vals.push(s.get(name) as PyNumber);
        if (vals.length > 0) avgValues.push(pyTrueDivide(pySum(vals), BigInt(vals.length)));
      }
      if (avgValues.length > 0)
        metrics[`pass@1[avg-of-${k}]/${name}`] = pct(pySum(avgValues), avgValues.length);

      if (answerKey !== undefined) {
        const majorityValues: PyNumber[] = [];
        allScores.forEach((ts, ti) => {
          const answers = allAnswers[ti] as (PyJson | undefined)[];
          const counts = new Map<string, { score: PyNumber; count: number }>();
          const n = Math.min(k, ts.length, answers.length);
          for (let i = 0; i < n; i++) {
            const a = answers[i];
            const s = ts[i] as Map<string, PyNumber>;
            if (a === null || a === undefined || !s.has(name)) continue;
            const score = s.get(name) as PyNumber;
            const key = `${hashKey(a)}\u0000${hashKey(score)}`;
            const entry = counts.get(key);
            if (entry) entry.count++;
            else counts.set(key, { score, count: 1 });
          }
          if (counts.size === 0) {
            majorityValues.push(0n);
            return;
          }
          let maxCount = 0;
          for (const e of counts.values()) maxCount = Math.max(maxCount, e.count);
          const tied = [...counts.values()].filter((e) => e.count === maxCount).map((e) => e.score);
          majorityValues.push(pyTrueDivide(pySum(tied), BigInt(tied.length)));
        });
        if (majorityValues.length > 0) {
          metrics[`majority@${k}/${name}`] = pct(pySum(majorityValues), majorityValues.length);
        }
      }
    }
  }

  const perSample: Record<string, number[]> = {};
  for (const name of scoreNames) perSample[name] = [];
  for (let run = 0; run < maxK; run++) {
    for (const name of scoreNames) {
      const runScores: PyNumber[] = [];
      for (const ts of allScores) {
        const s = ts[run];
        if (s !== undefined && s.has(name)) runScores.push(s.get(name) as PyNumber);
      }
      if (runScores.length > 0) (perSample[name] as number[]).push(pct(pySum(runScores), runScores.length));
    }
  }
  for (const name of scoreNames) if ((perSample[name] as number[]).length === 0) delete perSample[name];
  metrics['per_sample_aggregate'] = perSample;

  if (maxK > 1) {
    for (let k = 2; k <= maxK; k++) {
      for (const name of scoreNames) {
        const runAverages = (perSample[name] ?? []).slice(0, k);
        if (runAverages.length >= 2) {
          const n = runAverages.length;
          const mean = (pySum(runAverages) as number) / n;
          const variance = (pySum(runAverages.map((x) => (x - mean) * (x - mean))) as number) / (n - 1);
          const std = Math.sqrt(variance);
          metrics[`pass@1[avg-of-${k}]/${name}/std_dev_across_runs`] = std;
          metrics[`pass@1[avg-of-${k}]/${name}/std_err_across_runs`] = std / Math.sqrt(n);
        }
      }
    }
  }
  return { metrics, scores: allScores, scoreNames, maxK };
}
