import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunComparison } from '../../src/compare/output-comparison.js';
import { runCli } from '../cli/run-cli.js';
import { gymRolloutsText } from '../stats/gym-rollouts-text.js';

let dir: string;
const A = Array.from({ length: 24 }, (_, t) => [0, 1, 2].map((r) => ((t * 7 + r * 3) % 10 < 5 ? 1 : 0)));
// B fixes every failing trial of every third task, and task 23 is missing from B
const B = A.slice(0, 23).map((row, t) => row.map((v) => (t % 3 === 0 && v === 0 ? 1 : v)));
const bundle = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'es-compare-'));
  writeFileSync(join(dir, 'a.jsonl'), gymRolloutsText(A));
  writeFileSync(join(dir, 'b.jsonl'), gymRolloutsText(B));
  const config = join(dir, 'c.json');
  writeFileSync(config, JSON.stringify({ metrics: { default: ['verifier_reward', 'usage'] } }));
  for (const name of ['a', 'b']) {
    const r = await runCli([
      'score',
      join(dir, `${name}.jsonl`),
      '--config',
      config,
      '--out',
      bundle(name),
      '--no-report',
      '--no-progress',
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flipped = A.slice(0, 23).flatMap((row, t) =>
  t % 3 === 0 ? row.flatMap((v, r) => (v === 0 ? [`${t}-${r}`] : [])) : [],
);

describe('evalstream compare', () => {
  it('reports an improvement on bundles scored by score, naming the flipped tasks', async () => {
    const r = await runCli(['compare', bundle('a'), bundle('b'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const c = JSON.parse(r.stdout) as RunComparison;
    const reward = c.outputs.find((o) => o.name === 'verifier_reward.reward');
    expect(reward).toMatchObject({
      binary: true,
      tasks: 23,
      pairs: 69,
      onlyInA: ['23'],
      onlyInB: [],
      verdict: 'improved',
    });
    expect(reward?.flips?.passToFail).toEqual([]);
    expect(reward?.flips?.failToPass.map((f) => f.trialA)).toEqual(flipped);
    expect(reward?.mcnemar).toMatchObject({ passToFail: 0, failToPass: flipped.length });
    // token counts are the same in both runs: no difference, inconclusive
    expect(c.outputs.find((o) => o.name === 'usage.total_tokens')).toMatchObject({
      difference: 0,
      verdict: 'inconclusive',
    });
    expect(c.outputsWithoutValues).toContain('usage.cost_usd');
    // token counts are lower-is-better without being named; the reward is not
    expect(c.outputs.find((o) => o.name === 'usage.total_tokens')?.higherIsBetter).toBe(false);
    expect(reward?.higherIsBetter).toBe(true);
    expect(c.rule).toMatch(/Holm-adjusted p-value/);
  });

  it('prints the rule and a tally, writes the HTML page, and gates CI with --fail-on regression', async () => {
    const html = join(dir, 'compare.html');
    const r = await runCli([
      'compare',
      bundle('b'),
      bundle('a'),
      '--metric',
      'verifier_reward.reward',
      '--fail-on',
      'regression',
      '--html',
      html,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('evalstream: regressed: verifier_reward.reward\n');
    expect(r.stdout).toMatch(/verifier_reward\.reward {2}\[binary, higher is better\] {2}verdict: REGRESSED/);
    expect(r.stdout).toContain('tasks only in B (1): 23');
    expect(r.stdout).toMatch(/\nrule: improved \(regressed\): /);
    expect(r.stdout).toMatch(/\n1 output compared: 0 improved, 1 regressed, 0 inconclusive\n$/);
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(html, 'utf8')).toContain('verdict-regressed');
    const ok = await runCli(['compare', bundle('a'), bundle('b'), '--fail-on', 'regression']);
    expect(ok.code).toBe(0);
  });

  it('reads Gym rollout files directly, with the same statistics as the bundles', async () => {
    const files = await runCli(['compare', join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), '--json']);
    const bundles = await runCli(['compare', bundle('a'), bundle('b'), '--json']);
    const fromFiles = (JSON.parse(files.stdout) as RunComparison).outputs[0];
    const fromBundles = (JSON.parse(bundles.stdout) as RunComparison).outputs.find(
      (o) => o.name === 'verifier_reward.reward',
    );
    expect(fromFiles?.name).toBe('reward');
    expect({ ...fromFiles, name: '', holm: 0, benjaminiHochberg: 0 }).toEqual({
      ...fromBundles,
      name: '',
      holm: 0,
      benjaminiHochberg: 0,
    });
  });

  it('exit 2 naming the problem: an unknown output, a missing run, a bad rollout line', async () => {
    const unknown = await runCli(['compare', bundle('a'), bundle('b'), '--metric', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /no output 'nope' in both runs; outputs in both: .*verifier_reward\.reward/,
    );
    const higher = await runCli(['compare', bundle('a'), bundle('b'), '--higher-is-better', 'usage.tokens']);
    expect(higher.code).toBe(2);
    expect(higher.stderr).toMatch(/no output 'usage\.tokens' in both runs/);
    const missing = await runCli(['compare', bundle('a'), join(dir, 'absent')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('absent: no such file or directory');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, gymRolloutsText([[1]]) + '{"_ng_task_index": "x", "_ng_rollout_index": 0}\n');
    const r = await runCli(['compare', bad, join(dir, 'a.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.jsonl: line 2: _ng_task_index must be an integer, got "x"');
  });
});
