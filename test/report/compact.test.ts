import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boxNonFinite, compactJson, cutText } from '../../src/report/compact-json.js';
import { compactAtif, compactToolCalls } from '../../src/report/read-trial-trajectory.js';
import { embedJson } from '../../src/report/embed-json.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/atif/${name}`, import.meta.url), 'utf8'));

describe('embedJson', () => {
  it('escapes every < so no </script> or <!-- survives, and parses back to the same value', () => {
    const value = {
      a: '</script><script>alert(1)</script>',
      b: ['<!--', '<img src=x onerror=1>'],
      c: 'ok > fine',
    };
    const text = embedJson(value);
    expect(text).not.toContain('<');
    expect(text.toLowerCase()).not.toContain('</script');
    expect(JSON.parse(text)).toEqual(value);
  });
  it('keeps line separators and astral characters intact', () => {
    const value = { s: 'a\u2028b\u2029c 😀 \u0000' };
    expect(JSON.parse(embedJson(value))).toEqual(value);
  });
});

describe('cutText / boxNonFinite / compactJson', () => {
  it('cuts long strings with a visible marker and never splits a surrogate pair', () => {
    expect(cutText('abcdef', 3)).toBe('abc… [+3 chars]');
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('ab😀cd', 3)).toBe('ab… [+4 chars]');
  });
  it('boxes non-finite numbers', () => {
    expect(boxNonFinite(NaN)).toEqual({ $nf: 'NaN' });
    expect(boxNonFinite(Infinity)).toEqual({ $nf: 'Infinity' });
    expect(boxNonFinite(-Infinity)).toEqual({ $nf: '-Infinity' });
  });
  it('cuts strings, arrays and depth, boxes non-finite numbers, and keeps the rest', () => {
    const value = {
      text: 'x'.repeat(10),
      list: [1, 2, 3, 4, 5],
      nan: NaN,
      deep: { a: { b: { c: 1 } } },
      big: 12n,
      skip: undefined,
      ok: [true, null, 'y'],
    };
    expect(compactJson(value, { maxText: 4, maxItems: 3, maxDepth: 3 })).toEqual({
      text: 'xxxx… [+6 chars]',
      list: [1, 2, 3, '… [+2 items]'],
      nan: { $nf: 'NaN' },
      deep: { a: { b: '… [depth limit]' } },
      big: '12',
      ok: [true, null, 'y'],
    });
  });
});

describe('compactAtif', () => {
  it('joins results to calls by id even when listed in reverse, and flags subagents', () => {
    const t = compactAtif(fixture('fast-agent__harbor_multiagent_v1_7.json'), { maxText: 4000 });
    expect(t?.format).toBe('atif');
    expect(t?.agent).toBe('fast-agent golden (codexresponses.gpt-5.4?reasoning=high)');
    expect(t?.steps.map((s) => [s.id, s.source])).toEqual([
      [1, 'user'],
      [2, 'agent'],
      [3, 'agent'],
    ]);
    const step = t?.steps[1];
    expect(step?.reasoning).toBe('Use the worker and shell tools.');
    expect(step?.tokens).toEqual([100, 25]);
    expect(step?.calls).toEqual([
      {
        id: 'call_worker',
        name: 'worker',
        arguments: { task: 'inspect' },
        result: 'worker complete\n[subagent: traj_child_golden]',
        isError: false,
      },
      {
        id: 'call_shell',
        name: 'shell',
        arguments: { command: 'pwd' },
        result: '/workspace',
        isError: false,
      },
    ]);
    expect(step?.observations).toEqual([]);
    expect(t?.note).toBe('1 embedded subagent trajectories not shown');
  });
  it('reads an Anthropic-style trace (toolu ids, extra on the call)', () => {
    const t = compactAtif(fixture('nemo-agent-toolkit__exmp04_atif.json'), { maxText: 20 });
    expect(t?.agent).toBe('claude_summarizer 1.0.0 (claude-3-5-sonnet)');
    const call = t?.steps[1]?.calls[0];
    expect(call?.id).toBe('toolu_01abc');
    expect(call?.name).toBe('read_file');
    expect(call?.result).toMatch(/^Title: Intro\nThis pr… \[\+\d+ chars\]$/);
  });
  it('keeps unmatched observations, content parts, errors flagged in extra, and caps steps', () => {
    const t = compactAtif(
      {
        agent: { name: 'a' },
        steps: [
          {
            step_id: 1,
            source: 'agent',
            message: [
              { type: 'text', text: 'look' },
              { type: 'image', source: { path: 'images/1.png' } },
            ],
            tool_calls: [{ tool_call_id: 'c1', function_name: 'run', arguments: { x: 1 } }],
            observation: {
              results: [
                { source_call_id: 'c1', content: 'boom', extra: { is_error: true } },
                { source_call_id: null, content: 'system note' },
              ],
            },
          },
          { step_id: 2, source: 'agent', message: 'two' },
          'not a step',
        ],
      },
      { maxText: 100, maxSteps: 1 },
    );
    expect(t?.steps).toHaveLength(1);
    expect(t?.steps[0]?.message).toBe('look\n[image: images/1.png]');
    expect(t?.steps[0]?.calls[0]).toMatchObject({ result: 'boom', isError: true });
    expect(t?.steps[0]?.observations).toEqual(['system note']);
    expect(t?.note).toBe('showing the first 1 of 3 steps');
  });
  it('is null for anything without steps', () => {
    expect(compactAtif({ agent: {} }, { maxText: 10 })).toBeNull();
    expect(compactAtif('x', { maxText: 10 })).toBeNull();
  });
});

describe('compactToolCalls', () => {
  it('keeps normalised calls with cut arguments and results', () => {
    const t = compactToolCalls(
      'otlp',
      [
        {
          id: 'c1',
          name: 'get_weather',
          arguments: { city: 'Paris'.repeat(3) },
          result: null,
          isError: false,
          origin: { kind: 'otlp-span', spanId: '00f067aa0ba902b7' },
        },
      ],
      { maxText: 5, maxCalls: 1 },
    );
    expect(t).toEqual({
      format: 'otlp',
      agent: null,
      steps: [],
      calls: [
        {
          id: 'c1',
          name: 'get_weather',
          arguments: { city: 'Paris… [+10 chars]' },
          result: null,
          isError: false,
        },
      ],
      note: null,
    });
  });
});
