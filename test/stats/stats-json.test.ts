import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleStats, wilsonInterval } from '../../src/stats/bundle-stats.js';
import { passAtK } from '../../src/metrics/stats/pass-at-k.js';
import { clusteredMeanInterval } from '../../src/stats/clustered-mean-interval.js';
import { studentTIntervalFromMoments } from '../../src/stats/student-t-interval-from-moments.js';
import { runCli } from '../cli/run-cli.js';
import { gymRolloutsText } from './gym-rollouts-text.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'es-stats-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readStats = (bundle: string) =>
  JSON.parse(readFileSync(join(bundle, 'stats.json'), 'utf8')) as BundleStats;
const REWARDS = [
  [1, 1, 0],
  [0, 0, 0],
  [1, 1, 1],
  [1, 0, 0],
];

describe('stats.json', () => {
  it('score writes the intervals of every aggregate, each naming its method', async () => {
    const input = join(dir, 'rollouts.jsonl');
    writeFileSync(input, gymRolloutsText(REWARDS));
    const config = join(dir, 'c.json');
    writeFileSync(config, JSON.stringify({ metrics: { default: ['verifier_reward'] } }));
    const out = join(dir, 'scored');
    const r = await runCli([
      'score',
      input,
      '--config',
      config,
      '--out',
      out,
      '--no-report',
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const stats = readStats(out);
    expect(stats).toMatchObject({ stats_version: 1, confidence: 0.95 });
    const reward = stats.aggregates.find((a) => a.name === 'verifier_reward.reward');
    expect(reward).toMatchObject({ kind: 'output', values: 'numbers', n: 12, tasks: 4, mean: 0.5 });
    expect(reward?.intervals.map((i) => i.method)).toEqual(['student_t', 'clustered_t', 'wilson']);
    const clustered = reward?.intervals[1];
    expect(clustered?.low).toBeCloseTo(clusteredMeanInterval(REWARDS)?.low as number, 14);
    expect(reward?.intervals[2]).toEqual(wilsonInterval(6, 12));
    // pass@2: Student-t over the per-task estimates, from the summary's own moments
    const pass2 = stats.aggregates.find((a) => a.name === 'verifier_reward.reward.pass@2');
    const estimates = REWARDS.map((t) => passAtK(t.length, t.filter((v) => v === 1).length, 2));
    const mean = estimates.reduce((a, b) => a + b, 0) / estimates.length;
    const sd = Math.sqrt(estimates.reduce((a, v) => a + (v - mean) ** 2, 0) / (estimates.length - 1));
    const expected = studentTIntervalFromMoments(mean, sd, estimates.length);
    expect(pass2).toMatchObject({ kind: 'pass_at_k', n: 4, tasks: 4 });
    expect(pass2?.intervals[0]?.method).toBe('pass_at_k_t');
    expect(pass2?.intervals[0]?.low).toBeCloseTo(expected?.low as number, 12);
    expect(pass2?.intervals[0]?.high).toBeCloseTo(expected?.high as number, 12);
  });

  it('summarize writes it and leaves summary.json byte-identical; booleans get a Wilson interval', async () => {
    const out = join(dir, 'sparse');
    const r = await runCli(['summarize', 'examples/sparse-run', '--out', out, '--no-report']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'summary.json'))).toEqual(readFileSync('examples/sparse-run/summary.json'));
    const stats = readStats(out);
    expect(stats.aggregates.map((a) => a.name)).toEqual(
      (
        JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
          scores: { scores: { name: string }[] };
        }
      ).scores.scores.map((a) => a.name),
    );
    // unit_tests.passed: true, (failed trial), false — the summary aggregates no booleans
    const passed = stats.aggregates.find((a) => a.name === 'unit_tests.passed');
    expect(passed).toMatchObject({ values: 'booleans', n: 2, tasks: 1, mean: 0.5 });
    expect(passed?.intervals).toEqual([
      expect.objectContaining({ method: 'student_t' }),
      wilsonInterval(1, 2),
    ]);
    const verdict = stats.aggregates.find((a) => a.name === 'judge.verdict');
    expect(verdict).toMatchObject({ n: 0, intervals: [], note: 'no values' });
    const view = stats.aggregates.find((a) => a.name === 'view.format_quality');
    expect(view).toMatchObject({ kind: 'view', intervals: [], note: 'fewer than 2 values' });
  });
});
