import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileRollouts } from '../../src/gym/profile-rollouts.js';
import { row, tempDir, writeJsonl } from './gym-test-helpers.js';

type Json = Record<string, unknown>;

function input(task: number, rollout: number, agent: string): string {
  return JSON.stringify({
    responses_create_params: { input: `q${task}` },
    _ng_task_index: task,
    _ng_rollout_index: rollout,
    agent_ref: { name: agent },
    difficulty: 'easy',
  });
}

const INPUTS = [
  input(0, 0, 'a'),
  input(0, 1, 'b'),
  input(1, 0, 'a'),
  input(1, 1, 'a'),
  input(2, 0, 'a'),
  input(2, 1, 'a'),
];
const rollout = (t: number, r: number, reward: number, tokens: number): string =>
  row(t, r, { reward, response: { output: [{ text: 'x' }], usage: { input_tokens: tokens } } }, 'ignored');
const ROLLOUTS = [rollout(1, 1, 1, 40), rollout(0, 0, 1, 10), rollout(1, 0, 1, 30), rollout(0, 1, 0, 20)];

async function profile(inputs: string[], rollouts: string[], allowPartialRollouts = false) {
  const dir = tempDir();
  const lines: string[] = [];
  const warnings: string[] = [];
  const options = {
    inputs: writeJsonl(dir, 'r_materialized_inputs.jsonl', inputs),
    rollouts: writeJsonl(dir, 'r.jsonl', rollouts),
    allowPartialRollouts,
    log: (l: string) => lines.push(l),
    warn: (w: string) => warnings.push(w),
  };
  const result = await profileRollouts(options);
  return { dir, lines, warnings, result, options };
}

describe('gym profile (§14)', () => {
  it('inputs without rollouts are an error unless partial rollouts are allowed', async () => {
    await expect(profile(INPUTS, ROLLOUTS)).rejects.toThrow(
      'Materialized input rows and rollout results do not have matching rollout keys. Missing rollout results for 2 materialized input rows. ' +
        'Missing rollout keys: [(2, 0), (2, 1)].\n\nUse --allow-partial-rollouts to profile completed rollouts from a partial collection.',
    );
  });

  it('writes the three files next to the rollouts and prints the completion summary', async () => {
    const { dir, lines, warnings } = await profile(INPUTS, ROLLOUTS, true);
    expect(lines).toEqual([
      'Profiling outputs:',
      'Reward profile completion: 4/6 rollout rows (66.67%)',
      'Input rows: 3 total; 2 complete; 0 partial; 1 without rollouts dropped from output.',
      `Reward profiling outputs: ${join(dir, 'r_reward_profiling.jsonl')}`,
      `Agent-level metrics: ${join(dir, 'r_agent_metrics.json')}`,
      `Repeat-level metrics: ${join(dir, 'r_repeat_level_metrics.json')}`,
    ]);
    const groups = readFileSync(join(dir, 'r_reward_profiling.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Json);
    expect(groups.map((g) => g['_ng_task_index'])).toEqual([0, 1]); // task 2 had no rollout
    expect(groups[0]).toMatchObject({
      'mean/reward': 0.5,
      'mean/input_tokens': 15,
      sample: { responses_create_params: { input: 'q0' }, agent_ref: { name: 'a' }, difficulty: 'easy' },
      num_rollouts: 2,
      expected_num_rollouts: 2,
      missing_num_rollouts: 0,
      reward_profile_completion_pct: 100,
    });
    expect(Object.keys(groups[0]?.['sample'] as Json)).toEqual([
      'responses_create_params',
      'agent_ref',
      'difficulty',
    ]);
    expect((groups[1]?.['rollout_infos'] as Json[]).map((i) => i['rollout_id'])).toEqual(['1:0', '1:1']);

    const agents = JSON.parse(readFileSync(join(dir, 'r_agent_metrics.json'), 'utf8')) as Json[];
    expect(agents.map((a) => (a['agent_ref'] as Json)['name'])).toEqual(['a', 'b']);
    const keysA = Object.keys(agents[0] as Json);
    expect(keysA.indexOf('agent_ref')).toBe(keysA.indexOf('std/input_tokens') + 1);
    expect(keysA.at(-1)).toBe('ci_high_95_across_repeats/mean/reward');
    expect(agents[0]).toMatchObject({ 'mean/reward': 1, 'mean/input_tokens': 80 / 3 });
    expect(agents[1]).toMatchObject({ 'mean/reward': 0, 'std/reward': 0, agent_ref: { name: 'b' } });
    expect(Object.keys(agents[1] as Json).at(-1)).toBe('agent_ref');

    const repeats = JSON.parse(readFileSync(join(dir, 'r_repeat_level_metrics.json'), 'utf8')) as Json[];
    expect(
      repeats.map((r) => [
        (r['agent_ref'] as Json)['name'],
        r['_ng_rollout_index'],
        r['sample_count'],
        r['missing_count'],
      ]),
    ).toEqual([
      ['a', 0, 2, 0],
      ['a', 1, 1, 1],
    ]);
    expect(Object.keys(repeats[0] as Json).slice(0, 4)).toEqual([
      'agent_ref',
      '_ng_rollout_index',
      'sample_count',
      'missing_count',
    ]);
    expect(warnings).toContain(
      "1 repeat(s) are missing rollouts for some tasks (e.g. agent='a', _ng_rollout_index=1, missing_count=1). " +
        'repeat_level_metrics statistics were computed from unequal sample sizes across repeats and may not be directly comparable, ' +
        'and agent_level_metrics may be biased toward whichever tasks happened to complete. ' +
        'Consider obtaining the missing rollouts before drawing conclusions from these metrics.',
    );
    // compact, no trailing newline for the .json files
    expect(readFileSync(join(dir, 'r_repeat_level_metrics.json'), 'utf8')).toMatch(
      /^\[\{"agent_ref":\{"name":"a"\},"_ng_rollout_index":0,/,
    );
  });

  it('writes [] for the repeat file when no agent has two repeats', async () => {
    const { dir } = await profile([input(0, 0, 'a')], [rollout(0, 0, 1, 1)]);
    expect(readFileSync(join(dir, 'r_repeat_level_metrics.json'), 'utf8')).toBe('[]');
    expect(readFileSync(join(dir, 'r_reward_profiling.jsonl'), 'utf8').endsWith('}\n')).toBe(true);
  });

  it('errors: duplicate keys, rollouts without inputs, null response, blank line', async () => {
    await expect(profile([input(0, 0, 'a'), input(0, 0, 'a')], [rollout(0, 0, 1, 1)])).rejects.toThrow(
      /^Duplicate materialized input row for rollout key \(0, 0\): '.*r_materialized_inputs.jsonl' lines 1 and 2$/,
    );
    await expect(profile([input(0, 0, 'a')], [rollout(0, 0, 1, 1), rollout(0, 0, 0, 1)])).rejects.toThrow(
      /^Duplicate result row for rollout key \(0, 0\): '.*r.jsonl' lines 1 and 2$/,
    );
    await expect(profile([input(0, 0, 'a')], [rollout(0, 0, 1, 1), rollout(4, 1, 0, 1)])).rejects.toThrow(
      'Rollout results contain rows with no matching materialized input rows. Found 1 extra rollout rows. Extra rollout keys: [(4, 1)]',
    );
    await expect(profile([input(0, 0, 'a')], [row(0, 0, { reward: 1, response: null })])).rejects.toThrow(
      /^Bad rollout in '.*r.jsonl' at line 1: "response" must be an object, got null$/,
    );
    await expect(profile([input(0, 0, 'a')], [row(0, 0, { reward: 1 })])).rejects.toThrow(
      /^Bad rollout in '.*r.jsonl' at line 1: missing "response" \(Gym's profile reads "response.usage" of every rollout\)$/,
    );
    await expect(profile([input(0, 0, 'a'), ''], [rollout(0, 0, 1, 1)])).rejects.toThrow(
      /^Malformed JSON in '.*r_materialized_inputs.jsonl' at line 2: empty line$/,
    );
  });
});
