import { describe, expect, it } from 'vitest';
import type { EvidenceDescriptor, EvidenceRecord } from '../../src/model/trial.js';
import { defaultMetricNames } from '../../src/pipeline/create-trial-planner.js';
import { makeTrialItem } from '../metrics/make-trial-item.js';

const trace = (format: string | null, kind = 'trace'): EvidenceRecord => ({
  descriptors: { trace: { kind, format, ref: 'x', data: null, description: null, metadata: {} } },
  metadata: {},
});
const TRAJECTORY = ['trajectory_stats', 'token_usage', 'tool_call_efficiency'];

describe('defaultMetricNames', () => {
  it('trajectory metrics for a readable primary trace', () => {
    for (const format of [null, 'atif', 'otlp']) {
      expect(defaultMetricNames(makeTrialItem({ evidence: trace(format) }).trial)).toEqual(TRAJECTORY);
    }
  });
  it('none for a json trace, a non-trace kind, or only an alternate encoding', () => {
    expect(defaultMetricNames(makeTrialItem({ evidence: trace('json') }).trial)).toEqual([]);
    expect(
      defaultMetricNames(makeTrialItem({ evidence: trace('atif', 'sdk_online_generation') }).trial),
    ).toEqual([]);
    const alt = trace('atif');
    alt.descriptors = { 'trace:atif': alt.descriptors['trace'] as EvidenceDescriptor };
    expect(defaultMetricNames(makeTrialItem({ evidence: alt }).trial)).toEqual([]);
  });
  it('verifier_reward when rewards are recorded in trial or output metadata', () => {
    expect(
      defaultMetricNames(makeTrialItem({ metadata: { verifier_result: { rewards: { reward: 1 } } } }).trial),
    ).toEqual(['verifier_reward']);
    expect(
      defaultMetricNames(
        makeTrialItem({ output: { output_text: null, response: null, metadata: { reward: 0 } } }).trial,
      ),
    ).toEqual(['verifier_reward']);
    expect(
      defaultMetricNames(makeTrialItem({ evidence: trace('otlp'), metadata: { reward: 1 } }).trial),
    ).toEqual([...TRAJECTORY, 'verifier_reward']);
    expect(defaultMetricNames(makeTrialItem({ metadata: { reward: null } }).trial)).toEqual([]);
  });
});
