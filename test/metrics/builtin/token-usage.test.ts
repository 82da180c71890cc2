import { describe, expect, it } from 'vitest';
import { tokenUsage } from '../../../src/metrics/builtin/token-usage.js';
import { NO_MEASUREMENTS } from '../make-trial-item.js';
import { atifData, atifFile, harborOtlp, runOnEvidence } from './trajectory-stats.fixtures.js';

describe('token_usage', () => {
  it('declares optional outputs', () => {
    expect(
      tokenUsage()
        .outputSpec()
        .map((s) => [s.name, s.valueSchema, s.required]),
    ).toEqual([
      ['input_tokens', 'DiscreteScore', false],
      ['output_tokens', 'DiscreteScore', false],
      ['total_tokens', 'DiscreteScore', false],
      ['cached_tokens', 'DiscreteScore', false],
      ['cost_usd', 'ContinuousScore', false],
    ]);
  });

  it('ATIF final_metrics (fast-agent sample: 250 / 50 / 120 cached)', async () => {
    expect(await runOnEvidence(tokenUsage(), atifFile('fast-agent__harbor_multiagent_v1_7.json'))).toEqual({
      input_tokens: 250,
      output_tokens: 50,
      total_tokens: 300,
      cached_tokens: 120,
    });
  });

  it('ATIF per-step sums incl. cost when there is no final_metrics', async () => {
    const ev = atifData({
      schema_version: 'ATIF-v1.7',
      agent: { name: 'a', version: '1' },
      steps: [
        {
          step_id: 1,
          source: 'agent',
          message: '',
          metrics: { prompt_tokens: 10, completion_tokens: 4, cost_usd: 0.25 },
        },
        {
          step_id: 2,
          source: 'agent',
          message: 'x',
          metrics: { prompt_tokens: 20, completion_tokens: 6, cost_usd: 0.5 },
        },
      ],
    });
    expect(await runOnEvidence(tokenUsage(), ev)).toEqual({
      input_tokens: 30,
      output_tokens: 10,
      total_tokens: 40,
      cost_usd: 0.75,
    });
  });

  it('OTLP GenAI usage (7000 + 8400 in, 900 + 1200 out)', async () => {
    expect(await runOnEvidence(tokenUsage(), harborOtlp())).toEqual({
      input_tokens: 15400,
      output_tokens: 2100,
      total_tokens: 17500,
    });
  });

  it('nothing reported → no outputs; no trace → the trial measurements', async () => {
    expect(await runOnEvidence(tokenUsage(), atifFile('nemo-agent-toolkit__exmp02_atif.json'))).toEqual({});
    const measurements = {
      ...NO_MEASUREMENTS,
      prompt_tokens: 80,
      completion_tokens: 40,
      cache_read_tokens: 0,
    };
    expect(await runOnEvidence(tokenUsage(), null, measurements)).toEqual({
      input_tokens: 80,
      output_tokens: 40,
      total_tokens: 120,
      cached_tokens: 0,
    });
  });
});
