import * as z from 'zod';
import type { Metric } from '../../model/metric.js';
import type { MetricOutput } from '../../model/score-record.js';
import { continuousScore } from '../output-specs.js';
import { findRecordedRewards } from './find-recorded-rewards.js';

const optionsSchema = z
  .object({
    type: z.string().min(1).default('verifier_reward'),
    keys: z.array(z.string().min(1)).default(['reward']),
    optionalKeys: z.array(z.string().min(1)).default([]),
    missing: z.enum(['fail', 'zero']).default('fail'),
  })
  .strict()
  .refine((o) => o.keys.length + o.optionalKeys.length > 0, { message: 'declare at least one reward key' })
  .refine((o) => new Set([...o.keys, ...o.optionalKeys]).size === o.keys.length + o.optionalKeys.length, {
    message: 'reward keys must be unique across keys and optionalKeys',
  });

/** Options of {@link verifierReward}. */
export type VerifierRewardOptions = z.input<typeof optionsSchema>;

/**
 * `verifier_reward`: the rewards the runner's verifier recorded (no trace needed), read from the
 * candidate metadata, else the trial metadata (see `findRecordedRewards`: Harbor
 * `verifier_result.rewards`, a `rewards` map, or Gym's scalar `reward`). One continuous output per
 * reward key: `keys` (default `['reward']`) are required, `optionalKeys` are emitted when recorded.
 * Recorded keys not declared are ignored. A required reward that is absent fails the score, or scores
 * 0.0 with `missing: 'zero'` (the SDK's Harbor behaviour). Values are passed through unchanged and
 * checked as continuous scores (`true` and numeric strings pass, null does not).
 *
 * @example
 * verifierReward({ keys: ['reward'], optionalKeys: ['format_ok'] });
 * // metadata {verifier_result: {rewards: {reward: 1, format_ok: 0}}} → reward 1, format_ok 0
 */
export function verifierReward(options: VerifierRewardOptions = {}): Metric {
  const o = optionsSchema.parse(options);
  return {
    type: o.type,
    outputSpec: () => [
      ...o.keys.map((k) => continuousScore(k, { description: `verifier reward '${k}'` })),
      ...o.optionalKeys.map((k) =>
        continuousScore(k, { required: false, description: `verifier reward '${k}'` }),
      ),
    ],
    computeScores: async (input) => {
      const rewards =
        findRecordedRewards(input.candidate.metadata) ??
        findRecordedRewards(input.row.data.trial.metadata) ??
        {};
      const outputs: MetricOutput[] = [];
      for (const k of o.keys) {
        const v = rewards[k];
        if (v !== undefined) outputs.push({ name: k, value: v });
        else if (o.missing === 'zero') outputs.push({ name: k, value: 0.0 });
        else throw new Error(`trial '${input.row.data.trial.id}' has no recorded reward '${k}'`);
      }
      for (const k of o.optionalKeys) {
        const v = rewards[k];
        if (v !== undefined) outputs.push({ name: k, value: v });
      }
      return { outputs };
    },
  };
}
