import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { studentTQuantile } from '../../src/pycompat/student-t-quantile.js';
import { row, runAggregate, tempDir, writeJsonl } from './gym-test-helpers.js';

type Json = Record<string, unknown>;
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
/** pandas' two-pass sample std, written out for small hand examples. */
function std(xs: number[]): number {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (m - x) ** 2, 0) / (xs.length - 1));
}
const ZERO_SE = (n: number): string =>
  `Standard error is 0 (all ${n} values are identical) -- confidence interval collapses to a single point rather than being computed.`;

async function aggregate(rows: string[], extra: Partial<Parameters<typeof runAggregate>[0]> = {}) {
  const dir = tempDir();
  writeJsonl(dir, 'shard.jsonl', rows);
  const run = await runAggregate({
    inputGlob: join(dir, 'shard.jsonl'),
    output: join(dir, 'out', 'rollouts.jsonl'),
    ...extra,
  });
  const path = join(dir, 'out', 'rollouts_aggregate_metrics.json');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
  return { ...run, dir, text, agents: text === null ? null : (JSON.parse(text) as Json[]) };
}

describe('gym aggregate: the worked example of §16', () => {
  const rows = [
    row(0, 0, { reward: 1 }),
    row(0, 1, { reward: 0 }),
    row(1, 0, { reward: 1 }),
    row(1, 1, { reward: 1 }),
  ];

  it('agent, group, repeat and across-repeat numbers, key metrics and the warning', async () => {
    const { agents, warnings, text } = await aggregate(rows);
    const [a] = agents as Json[];
    const am = a?.['agent_metrics'] as Json;
    expect(a?.['agent_ref']).toEqual({ name: 'agent_a' });
    expect(Object.keys(a as Json)).toEqual([
      'agent_ref',
      'agent_metrics',
      'key_metrics',
      'group_level_metrics',
      'repeat_level_metrics',
    ]);
    expect(am['mean/reward']).toBe(0.75);
    expect(am['max/reward']).toBe(1);
    expect(am['min/reward']).toBe(0);
    expect(am['median/reward']).toBe(1);
    expect(am['std/reward']).toBe(0.5);
    expect(am['mean_across_repeats/mean/reward']).toBe(0.75);
    expect(am['median_across_repeats/mean/reward']).toBe(0.75);
    expect(am['se_across_repeats/mean/reward']).toBe(0.25);
    expect(rel(am['ci_low_95_across_repeats/mean/reward'] as number, -2.426551184108024)).toBeLessThan(5e-11);
    expect(rel(am['ci_high_95_across_repeats/mean/reward'] as number, 3.926551184108024)).toBeLessThan(5e-11);
    expect(a?.['key_metrics']).toEqual({ 'mean/reward': 0.75 });

    const groups = a?.['group_level_metrics'] as Json[];
    expect(groups.map((g) => [g['_ng_task_index'], g['mean/reward'], g['std/reward']])).toEqual([
      [0, 0.5, 0.7071067811865476],
      [1, 1, 0],
    ]);
    expect(Object.keys(groups[0] as Json)).toEqual([
      '_ng_task_index',
      'mean/reward',
      'max/reward',
      'min/reward',
      'median/reward',
      'std/reward',
      'sample',
      'num_rollouts',
      'expected_num_rollouts',
      'missing_num_rollouts',
      'reward_profile_completion_pct',
      'rollout_infos',
    ]);
    expect(groups[0]).toMatchObject({
      sample: { agent_ref: { name: 'agent' } },
      num_rollouts: 2,
      expected_num_rollouts: 2,
      missing_num_rollouts: 0,
      reward_profile_completion_pct: 100,
      rollout_infos: [
        { rollout_id: '0:0', _ng_task_index: 0, _ng_rollout_index: 0, reward: 1 },
        { rollout_id: '0:1', _ng_task_index: 0, _ng_rollout_index: 1, reward: 0 },
      ],
    });

    const [r0, r1] = a?.['repeat_level_metrics'] as Json[];
    expect(r0).toEqual({
      _ng_rollout_index: 0,
      sample_count: 2,
      missing_count: 0,
      'mean/reward': 1,
      'median/reward': 1,
      'std/reward': 0,
      'sem/reward': 0,
      'min/reward': 1,
      'max/reward': 1,
      'p25/reward': 1,
      'p75/reward': 1,
      'ci_low_95/reward': 1,
      'ci_high_95/reward': 1,
    });
    expect(Object.keys(r1 as Json)).toEqual(Object.keys(r0 as Json));
    expect(r1).toMatchObject({
      'mean/reward': 0.5,
      'std/reward': 0.7071067811865476,
      'sem/reward': 0.5,
      'p25/reward': 0.25,
      'p75/reward': 0.75,
    });
    expect(rel(r1?.['ci_low_95/reward'] as number, -5.853102368216048)).toBeLessThan(5e-11);
    expect(rel(r1?.['ci_high_95/reward'] as number, 6.853102368216048)).toBeLessThan(5e-11);
    expect(warnings).toEqual([ZERO_SE(2)]);

    // file format: orjson OPT_INDENT_2, floats keep their point, ints stay ints, no trailing newline
    expect(
      text?.startsWith(
        '[\n  {\n    "agent_ref": {\n      "name": "agent_a"\n    },\n    "agent_metrics": {\n      "mean/reward": 0.75,\n      "max/reward": 1.0,',
      ),
    ).toBe(true);
    expect(text).toContain('"num_rollouts": 2,');
    expect(text).toContain('"reward_profile_completion_pct": 100.0,');
    expect(text?.endsWith(']')).toBe(true);
  });

  it('prints what gym eval aggregate prints', async () => {
    const { lines, dir } = await aggregate(rows);
    expect(lines).toEqual([
      'Aggregating 1 shard(s):',
      `  - ${join(dir, 'shard.jsonl')}`,
      'Loaded 4 rollout record(s) from 1 shard(s)',
      `Merging shards into ${join(dir, 'out', 'rollouts.jsonl')}`,
      '\nKey metrics for agent_a:\n{\n    "mean/reward": 0.75\n}',
      `Finished rollout aggregation! View results at:\nMerged rollouts: ${join(dir, 'out', 'rollouts.jsonl')}\nAggregate metrics: ${join(dir, 'out', 'rollouts_aggregate_metrics.json')}`,
    ]);
  });
});

describe('gym aggregate: fields of a row (§2) and rollout_infos (§4)', () => {
  const rows = [
    row(0, 0, {
      reward: null,
      total_tokens: 7,
      response: {
        output: [{ type: 'message', content: [{ text: 'a "long" answer' }] }],
        usage: {
          input_tokens: 100,
          output_tokens: 150,
          total_tokens: 250,
          input_tokens_details: { cached_tokens: 0 },
        },
      },
      responses_create_params: { input: [{ role: 'user', content: 'hi' }] },
      flag: true,
      note: 'x',
      _ng_attempt_index: 1,
    }),
    row(0, 1, {
      reward: 1,
      total_tokens: 9,
      response: { usage: { input_tokens: 10, output_tokens: 20, total_tokens: 30 } },
      flag: false,
      note: 'y',
    }),
  ];

  it('usage replaces a top-level key in place, new usage keys come last, first-seen column order', async () => {
    const { agents } = await aggregate(rows);
    const am = (agents as Json[])[0]?.['agent_metrics'] as Json;
    const cols = ['total_tokens', 'flag', '_ng_attempt_index', 'input_tokens', 'output_tokens', 'reward'];
    expect(Object.keys(am).filter((k) => k.startsWith('mean/'))).toEqual(cols.map((c) => `mean/${c}`));
    expect(Object.keys(am).slice(0, 6)).toEqual(cols.map((c) => `mean/${c}`));
    expect(Object.keys(am).slice(6, 12)).toEqual(cols.map((c) => `max/${c}`));
    expect(am['mean/total_tokens']).toBe(140); // usage 250 and 30, not the top-level 7 and 9
    expect(am['mean/flag']).toBe(0.5);
    expect(am['mean/_ng_attempt_index']).toBe(1);
    expect(am['max/input_tokens']).toBe(100);
    expect(am['std/total_tokens']).toBe(std([250, 30]));
    expect(am['std/flag']).toBe(std([1, 0]));
    // one value only: std is NaN and, since other stds are not NaN, omitted
    expect('std/_ng_attempt_index' in am).toBe(false);
    expect('std/reward' in am).toBe(false);
    expect('mean/note' in am).toBe(false);
    expect('mean/cached_tokens' in am).toBe(false);
  });

  it('rollout_infos: reward always (even null), usage numbers, then top-level numbers which win', async () => {
    const { agents, text } = await aggregate(rows);
    const infos = ((agents as Json[])[0]?.['group_level_metrics'] as Json[])[0]?.['rollout_infos'] as Json[];
    expect(infos[0]).toEqual({
      rollout_id: '0:0',
      _ng_task_index: 0,
      _ng_rollout_index: 0,
      reward: null,
      input_tokens: 100,
      output_tokens: 150,
      total_tokens: 7,
      flag: 1,
      _ng_attempt_index: 1,
    });
    expect(Object.keys(infos[0] as Json)).toEqual([
      'rollout_id',
      '_ng_task_index',
      '_ng_rollout_index',
      'reward',
      'input_tokens',
      'output_tokens',
      'total_tokens',
      'flag',
      '_ng_attempt_index',
    ]);
    expect(infos[1]).toEqual({
      rollout_id: '0:1',
      _ng_task_index: 0,
      _ng_rollout_index: 1,
      reward: 1,
      input_tokens: 10,
      output_tokens: 20,
      total_tokens: 9,
      flag: 0,
    });
    expect(text).toContain('"total_tokens": 7,');
    expect(text).toContain('"flag": 1,');
    expect(text).toContain('"max/total_tokens": 250.0,');
  });

  it('warns about a field that is a number in some rows and not in others', async () => {
    const { warnings, dir } = await aggregate([
      row(0, 0, { reward: 1 }),
      row(0, 1, { reward: 'n/a' }),
      row(1, 0, { reward: [1] }),
    ]);
    expect(warnings).toContain(
      `field "reward" is not a number in 2 row(s) and counts as missing there (first: '${join(dir, 'shard.jsonl')}' line 2, a string)`,
    );
  });
});

describe('gym aggregate: std rules and value types (§3, §4)', () => {
  it('a one-rollout task gets std 0.0; a null reward drops only its own std', async () => {
    const { agents, text } = await aggregate([
      row(0, 0, { reward: 1, tokens: 5 }),
      row(1, 0, { reward: 1, tokens: 3 }),
      row(1, 1, { reward: null, tokens: 4 }),
    ]);
    const [g0, g1] = (agents as Json[])[0]?.['group_level_metrics'] as Json[];
    expect(g0).toMatchObject({ 'std/reward': 0, 'std/tokens': 0, 'mean/tokens': 5 });
    expect(g1).toMatchObject({
      'mean/reward': 1,
      'max/reward': 1,
      'min/reward': 1,
      'median/reward': 1,
      'std/tokens': std([3, 4]),
    });
    expect('std/reward' in (g1 as Json)).toBe(false);
    // reward is a float column, so max/min of the int column are floats too
    expect(text).toContain('"max/tokens": 5.0,');
  });

  it('max/min stay ints only when every column is an int column without missing values', async () => {
    const { agents, text } = await aggregate([row(0, 0, { tokens: 5 }), row(0, 1, { tokens: 3 })]);
    expect(text).toContain('"max/tokens": 5,');
    expect(text).toContain('"min/tokens": 3,');
    expect(text).toContain('"mean/tokens": 4.0,');
    const g = ((agents as Json[])[0]?.['group_level_metrics'] as Json[])[0] as Json;
    expect(g['std/tokens']).toBe(Math.SQRT2);
  });

  it('if every std is NaN, std is 0.0 for the fields without a missing value', async () => {
    const { agents } = await aggregate([row(0, 0, { reward: 1, tokens: 4 }), row(1, 0, { tokens: 4 })]);
    const [g0, g1] = (agents as Json[])[0]?.['group_level_metrics'] as Json[];
    expect(g0).toMatchObject({ 'std/reward': 0, 'std/tokens': 0 });
    expect(g1).toMatchObject({ 'std/tokens': 0 });
    expect(Object.keys(g1 as Json).some((k) => k.endsWith('/reward'))).toBe(false);
  });
});

describe('gym aggregate: repeat-level metrics (§5–§8)', () => {
  const rows = [
    row(0, 0, { reward: 1, zeta: 2, alpha: 1.5 }),
    row(0, 2, { reward: 0, zeta: 2, alpha: 0.5 }),
    row(0, 5, { reward: 1, zeta: 2 }),
    row(1, 0, { reward: 0, zeta: 2 }),
    row(1, 2, { reward: 1, zeta: 2 }),
    row(2, 0, { reward: 0, zeta: 2 }),
  ];

  it('entries per rollout index (0, 2, 5), counts, alphabetical fields, n=1 rules', async () => {
    const { agents } = await aggregate(rows);
    const reps = (agents as Json[])[0]?.['repeat_level_metrics'] as Json[];
    expect(reps.map((r) => [r['_ng_rollout_index'], r['sample_count'], r['missing_count']])).toEqual([
      [0, 3, 0],
      [2, 2, 1],
      [5, 1, 2],
    ]);
    const [r0, r2, r5] = reps as [Json, Json, Json];
    expect(Object.keys(r0).slice(3, 13)).toEqual([
      'mean/alpha',
      'median/alpha',
      'std/alpha',
      'sem/alpha',
      'min/alpha',
      'max/alpha',
      'p25/alpha',
      'p75/alpha',
      'mean/reward',
      'median/reward',
    ]);
    expect(r0).toMatchObject({ 'mean/alpha': 1.5, 'std/alpha': 0, 'sem/alpha': 0, 'p25/alpha': 1.5 });
    expect('ci_low_95/alpha' in r0).toBe(false); // n = 1
    const rs = [1, 0, 0];
    const mean = 1 / 3;
    expect(r0['mean/reward']).toBe(mean);
    expect(r0['median/reward']).toBe(0);
    expect(r0['std/reward']).toBe(std(rs));
    expect(r0['sem/reward']).toBe(std(rs) / Math.sqrt(3));
    expect(r0['p25/reward']).toBe(0);
    expect(r0['p75/reward']).toBe(0.5);
    const half = studentTQuantile(0.975, 2) * (std(rs) / Math.sqrt(3));
    expect(r0['ci_low_95/reward']).toBe(-half + mean);
    expect(r0['ci_high_95/reward']).toBe(half + mean);
    expect(r0).toMatchObject({ 'ci_low_95/zeta': 2, 'ci_high_95/zeta': 2 });
    expect(r5).toMatchObject({ 'mean/reward': 1, 'std/reward': 0, 'sem/reward': 0 });
    expect('mean/alpha' in r5).toBe(false);
    expect(r2['mean/alpha']).toBe(0.5);
  });

  it('across repeats: mean of the per-repeat means (not the pooled mean), se, CI', async () => {
    const { agents } = await aggregate(rows);
    const am = (agents as Json[])[0]?.['agent_metrics'] as Json;
    expect(am['mean/reward']).toBe(0.5);
    const means = [1 / 3, 0.5, 1];
    const m = (means[0]! + means[1]! + means[2]!) / 3;
    expect(am['mean_across_repeats/mean/reward']).toBe(m);
    expect(am['median_across_repeats/mean/reward']).toBe(0.5);
    expect(am['se_across_repeats/mean/reward']).toBe(std(means) / Math.sqrt(3));
    expect(am['mean_across_repeats/mean/alpha']).toBe(1);
    expect(am['se_across_repeats/mean/alpha']).toBe(std([1.5, 0.5]) / Math.SQRT2);
    expect(am['ci_low_95_across_repeats/mean/zeta']).toBe(2);
    const across = Object.keys(am).filter((k) => k.includes('_across_repeats/'));
    expect(across.slice(0, 5)).toEqual([
      'mean_across_repeats/mean/alpha',
      'median_across_repeats/mean/alpha',
      'se_across_repeats/mean/alpha',
      'ci_low_95_across_repeats/mean/alpha',
      'ci_high_95_across_repeats/mean/alpha',
    ]);
    expect(Object.keys(am).indexOf('mean_across_repeats/mean/alpha')).toBeGreaterThan(
      Object.keys(am).indexOf('std/zeta'),
    );
    expect(am['key_metrics']).toBeUndefined();
    expect(Object.keys((agents as Json[])[0]?.['key_metrics'] as Json)).toEqual([
      'mean/reward',
      'mean/zeta',
      'mean/alpha',
    ]);
  });

  it('each distinct warning once: zero SE (per n) and unequal coverage', async () => {
    const { warnings } = await aggregate(rows);
    expect(warnings).toEqual([
      ZERO_SE(3),
      ZERO_SE(2),
      "2 repeat(s) are missing rollouts for some tasks (e.g. agent='agent', _ng_rollout_index=2, missing_count=1). " +
        'repeat_level_metrics statistics were computed from unequal sample sizes across repeats and may not be directly comparable, ' +
        'and agent_level_metrics may be biased toward whichever tasks happened to complete. ' +
        'Consider obtaining the missing rollouts before drawing conclusions from these metrics.',
    ]);
  });

  it('an agent with one distinct rollout index has no repeat entries and no across keys', async () => {
    const { agents } = await aggregate([row(0, 0, { reward: 1 }), row(1, 0, { reward: 0 })]);
    const a = (agents as Json[])[0] as Json;
    expect(a['repeat_level_metrics']).toEqual([]);
    expect(Object.keys(a['agent_metrics'] as Json).some((k) => k.includes('across'))).toBe(false);
  });
});
