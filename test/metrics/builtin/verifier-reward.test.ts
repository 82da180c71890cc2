import { describe, expect, it } from 'vitest';
import { findRecordedRewards } from '../../../src/metrics/builtin/find-recorded-rewards.js';
import { verifierReward } from '../../../src/metrics/builtin/verifier-reward.js';
import { runMetric } from './run-metric.js';

describe('findRecordedRewards', () => {
  it('prefers verifier_result.rewards, then rewards, then a scalar reward', () => {
    expect(findRecordedRewards({ verifier_result: { rewards: { reward: 1 } }, reward: 0 })).toEqual({
      reward: 1,
    });
    expect(findRecordedRewards({ rewards: { acc: 0.5 }, reward: 0 })).toEqual({ acc: 0.5 });
    expect(findRecordedRewards({ reward: 0 })).toEqual({ reward: 0 });
    expect(findRecordedRewards({ reward: null })).toBeNull();
    expect(findRecordedRewards({ verifier_result: { rewards: null } })).toBeNull();
  });
});

describe('verifier_reward', () => {
  it('reads Harbor rewards from trial metadata (also without an output)', async () => {
    const metadata = { verifier_result: { rewards: { reward: 1, extra: 0.2 } } };
    expect(await runMetric(verifierReward(), 'x', {}, { metadata })).toEqual({ reward: 1 });
    expect(await runMetric(verifierReward(), null, {}, { metadata, output: null })).toEqual({ reward: 1 });
  });
  it('reads a Gym reward; output metadata wins over trial metadata', async () => {
    expect(
      await runMetric(
        verifierReward(),
        null,
        {},
        {
          metadata: { reward: 0 },
          output: { output_text: null, response: null, metadata: { reward: 1 } },
        },
      ),
    ).toEqual({ reward: 1 });
  });
  it('declares keys required and optionalKeys optional; emits optional ones when present', async () => {
    const m = verifierReward({ keys: ['acc'], optionalKeys: ['format_ok', 'style'] });
    expect(m.outputSpec().map((s) => [s.name, s.required])).toEqual([
      ['acc', true],
      ['format_ok', false],
      ['style', false],
    ]);
    expect(await runMetric(m, null, {}, { metadata: { rewards: { acc: 0.5, format_ok: true } } })).toEqual({
      acc: 0.5,
      format_ok: true,
    });
  });
  it('a missing required reward fails, or scores 0 with missing: zero', async () => {
    await expect(runMetric(verifierReward(), 'x', {}, { id: 'a9' })).rejects.toThrow(
      "trial 'a9' has no recorded reward 'reward'",
    );
    expect(await runMetric(verifierReward({ missing: 'zero' }), 'x', {})).toEqual({ reward: 0 });
  });
  it('passes values through; validation refuses a non-numeric reward', async () => {
    await expect(runMetric(verifierReward(), 'x', {}, { metadata: { reward: 'high' } })).rejects.toThrow(
      /float_parsing/,
    );
  });
  it('refuses empty or duplicate key lists', () => {
    expect(() => verifierReward({ keys: [], optionalKeys: [] })).toThrow(/at least one/);
    expect(() => verifierReward({ keys: ['a'], optionalKeys: ['a'] })).toThrow(/unique/);
  });
});
