import { describe, expect, it } from 'vitest';
import { trajectoryStats } from '../../../src/metrics/builtin/trajectory-stats.js';
import { atifData, atifFile, harborOtlp, runOnEvidence } from './trajectory-stats.fixtures.js';

describe('trajectory_stats', () => {
  it('declares four discrete outputs', () => {
    expect(
      trajectoryStats()
        .outputSpec()
        .map((s) => [s.name, s.valueSchema]),
    ).toEqual([
      ['steps', 'DiscreteScore'],
      ['tool_calls', 'DiscreteScore'],
      ['tool_errors', 'DiscreteScore'],
      ['turns', 'DiscreteScore'],
    ]);
  });

  it.each([
    ['nemo-agent-toolkit__exmp02_atif.json', { steps: 3, tool_calls: 1, tool_errors: 0, turns: 1 }],
    ['nemo-agent-toolkit__exmp06_atif.json', { steps: 7, tool_calls: 0, tool_errors: 0, turns: 3 }],
    ['fast-agent__harbor_multiagent_v1_7.json', { steps: 3, tool_calls: 2, tool_errors: 0, turns: 1 }],
  ])('%s (counts read off the file)', async (file, expected) => {
    expect(await runOnEvidence(trajectoryStats(), atifFile(file))).toEqual(expected);
  });

  it('OTLP: 5 spans, 2 tool calls, both failing, 1 agent invocation', async () => {
    expect(await runOnEvidence(trajectoryStats(), harborOtlp())).toEqual({
      steps: 5,
      tool_calls: 2,
      tool_errors: 2,
      turns: 1,
    });
  });

  it('error flags from extra.is_error; copied-context steps are not counted', async () => {
    const ev = atifData({
      schema_version: 'ATIF-v1.7',
      agent: { name: 'a', version: '1' },
      steps: [
        { step_id: 1, source: 'user', message: 'old', is_copied_context: true },
        { step_id: 2, source: 'user', message: 'new' },
        {
          step_id: 3,
          source: 'agent',
          message: '',
          tool_calls: [
            { tool_call_id: 'x', function_name: 'run', arguments: {} },
            { tool_call_id: 'y', function_name: 'run', arguments: { a: 1 } },
          ],
          observation: {
            results: [
              { source_call_id: 'y', content: 'ok' },
              { source_call_id: 'x', content: 'boom', extra: { is_error: true } },
            ],
          },
        },
      ],
    });
    expect(await runOnEvidence(trajectoryStats(), ev)).toEqual({
      steps: 2,
      tool_calls: 2,
      tool_errors: 1,
      turns: 1,
    });
  });
});
