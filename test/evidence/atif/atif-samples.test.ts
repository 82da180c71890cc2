import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ATIFTraceHandle } from '../../../src/evidence/atif/atif-trace-handle.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../../fixtures/atif/${name}`, import.meta.url));

// Every expected number below was read off the sample files by hand (see test/fixtures/atif/README.md).
describe('real ATIF samples', () => {
  describe('fast-agent harbor_multiagent_v1_7 (parallel calls, reversed results, subagent)', () => {
    const h = (): ATIFTraceHandle =>
      ATIFTraceHandle.fromFile(fixture('fast-agent__harbor_multiagent_v1_7.json'));

    it('SDK tool_calls(): both calls of step 2 in declaration order', async () => {
      const calls = await h().toolCalls();
      expect(calls.map((c) => [c.tool_call_id, c.function_name, c.arguments])).toEqual([
        ['call_worker', 'worker', { task: 'inspect' }],
        ['call_shell', 'shell', { command: 'pwd' }],
      ]);
    });

    it('SDK token_usage(): final_metrics as a whole (250/50/120, includes subagent spend)', async () => {
      const u = await h().tokenUsage();
      expect(u.total_prompt_tokens).toBe(250);
      expect(u.total_completion_tokens).toBe(50);
      expect(u.total_cached_tokens).toBe(120);
      expect(u.total_steps).toBe(3);
      expect(u.extra).toEqual({
        root_prompt_tokens: 230,
        root_completion_tokens: 40,
        subagent_prompt_tokens: 20,
        subagent_completion_tokens: 10,
      });
    });

    it('normalised calls join results by source_call_id although results are listed in reverse', () => {
      const calls = h().normalizedToolCalls();
      expect(calls).toEqual([
        {
          id: 'call_worker',
          name: 'worker',
          arguments: { task: 'inspect' },
          result: 'worker complete',
          isError: false,
          origin: { kind: 'atif-step', stepId: 2 },
        },
        {
          id: 'call_shell',
          name: 'shell',
          arguments: { command: 'pwd' },
          result: '/workspace',
          isError: false,
          origin: { kind: 'atif-step', stepId: 2 },
        },
      ]);
    });

    it('normalised usage, counts and final text', () => {
      const handle = h();
      expect(handle.normalizedTokenUsage()).toEqual({
        input: 250,
        output: 50,
        cached: 120,
        costUsd: null,
        vocabulary: ['atif'],
      });
      expect(handle.stepCount()).toBe(3);
      expect(handle.turnCount()).toBe(1);
      expect(handle.finalText()).toBe('The workspace is /workspace.');
    });

    it('includes the embedded subagent on request (2 more steps, no extra calls)', async () => {
      const deep = ATIFTraceHandle.fromFile(fixture('fast-agent__harbor_multiagent_v1_7.json'), {
        includeSubagents: true,
      });
      expect(deep.stepCount()).toBe(5);
      expect(deep.normalizedToolCalls()).toHaveLength(2);
      // root final_metrics already include the subagent's 20/10, so totals are not summed again
      expect(deep.normalizedTokenUsage().input).toBe(250);
      const subs = await deep.subagentTrajectories();
      expect(subs.map((s) => s.trajectory_id)).toEqual(['traj_child_golden']);
      expect(await deep.conformance()).toEqual([]);
    });
  });

  describe('NeMo Agent Toolkit exmp02 (one call, no metrics)', () => {
    const h = (): ATIFTraceHandle =>
      ATIFTraceHandle.fromFile(fixture('nemo-agent-toolkit__exmp02_atif.json'));

    it('one calculator call with result "7"', async () => {
      const calls = await h().toolCalls();
      expect(calls).toHaveLength(1);
      expect(calls[0]?.function_name).toBe('calculator__add');
      expect(calls[0]?.arguments).toEqual({ a: 3, b: 4 });
      const n = h().normalizedToolCalls();
      expect(n.map((c) => [c.id, c.result, c.isError])).toEqual([['call_abc', '7', false]]);
    });

    it('no final_metrics and no step metrics: both SDK sums are null', async () => {
      const u = await h().tokenUsage();
      expect(u.total_prompt_tokens).toBeNull();
      expect(u.total_completion_tokens).toBeNull();
      expect(h().normalizedTokenUsage()).toMatchObject({
        input: null,
        output: null,
        cached: null,
        costUsd: null,
      });
    });

    it('3 steps, 1 user turn, final answer from the last agent step', () => {
      const handle = h();
      expect(handle.stepCount()).toBe(3);
      expect(handle.turnCount()).toBe(1);
      expect(handle.finalText()).toBe('3 + 4 = 7');
    });
  });

  describe('NeMo Agent Toolkit exmp04 (Anthropic-style ids)', () => {
    it('one read_file call joined to its text result', () => {
      const handle = ATIFTraceHandle.fromFile(fixture('nemo-agent-toolkit__exmp04_atif.json'));
      expect(handle.normalizedToolCalls().map((c) => [c.id, c.name, c.arguments, c.result])).toEqual([
        [
          'toolu_01abc',
          'read_file',
          { path: '/docs/intro.md' },
          'Title: Intro\nThis project is an end-to-end demo.',
        ],
      ]);
      expect(handle.finalText()).toBe(
        'The document is the introduction page for an end-to-end demo project.',
      );
      expect(handle.stepCount()).toBe(3);
    });
  });

  describe('NeMo Agent Toolkit exmp06 (router, several user steps)', () => {
    it('no tool calls, 7 steps, 3 user turns, no token data', async () => {
      const handle = ATIFTraceHandle.fromFile(fixture('nemo-agent-toolkit__exmp06_atif.json'));
      expect(await handle.toolCalls()).toEqual([]);
      expect(handle.stepCount()).toBe(7);
      expect(handle.turnCount()).toBe(3);
      expect(handle.finalText()).toBe('2^32 = 4,294,967,296');
      const steps = await handle.steps();
      expect(steps.map((s) => s.model_name ?? null)).toEqual([
        null,
        null,
        'gpt-4o',
        null,
        'claude-3-5-sonnet',
        null,
        'gemini-2.0-flash',
      ]);
      expect((await handle.tokenUsage()).total_prompt_tokens).toBeNull();
    });
  });
});
