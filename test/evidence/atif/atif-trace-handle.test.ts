import { describe, expect, it } from 'vitest';
import { AtifParseError, parseAtif } from '../../../src/evidence/atif/parse-atif.js';
import { ATIFTraceHandle } from '../../../src/evidence/atif/atif-trace-handle.js';
import { checkAtifConformance } from '../../../src/evidence/atif/check-atif-conformance.js';
import type { AtifTrajectory } from '../../../src/evidence/atif/atif-trajectory-schema.js';
import type { JsonValue } from '../../../src/model/json-value.js';

const fromData = (data: JsonValue): ATIFTraceHandle =>
  ATIFTraceHandle.fromDescriptor(
    { kind: 'trace', format: 'atif', ref: null, data, description: null, metadata: {} },
    (r) => r,
  );

const base = (steps: JsonValue[], extra: Record<string, JsonValue> = {}): JsonValue => ({
  schema_version: 'ATIF-v1.7',
  agent: { name: 'a', version: '1' },
  steps,
  ...extra,
});

describe('ATIFTraceHandle SDK rules', () => {
  it('token_usage sums step prompt/completion tokens when final_metrics is absent', async () => {
    const h = fromData(
      base([
        { step_id: 1, source: 'user', message: 'go' },
        {
          step_id: 2,
          source: 'agent',
          message: '',
          metrics: { prompt_tokens: 10, completion_tokens: 3, cached_tokens: 4 },
        },
        { step_id: 3, source: 'agent', message: 'done', metrics: { prompt_tokens: 7, cost_usd: 0.5 } },
      ]),
    );
    expect(await h.tokenUsage()).toEqual({
      total_prompt_tokens: 17,
      total_completion_tokens: 3,
      total_cached_tokens: null,
      total_cost_usd: null,
      total_steps: null,
      extra: null,
    });
    // the normalised view also sums cached tokens and cost per field
    expect(h.normalizedTokenUsage()).toEqual({
      input: 17,
      output: 3,
      cached: 4,
      costUsd: 0.5,
      vocabulary: ['atif'],
    });
  });

  it('a sum of 0 is reported as null', async () => {
    const h = fromData(
      base([
        { step_id: 1, source: 'agent', message: 'x', metrics: { prompt_tokens: 0, completion_tokens: 0 } },
      ]),
    );
    const u = await h.tokenUsage();
    expect(u.total_prompt_tokens).toBeNull();
    expect(u.total_completion_tokens).toBeNull();
    // the normalised view keeps a measured zero
    expect(h.normalizedTokenUsage().input).toBe(0);
  });

  it('final_metrics is returned as a whole even when it only carries total_steps', async () => {
    const h = fromData(
      base(
        [{ step_id: 1, source: 'agent', message: 'x', metrics: { prompt_tokens: 5, completion_tokens: 2 } }],
        {
          final_metrics: { total_steps: 1 },
        },
      ),
    );
    const u = await h.tokenUsage();
    expect(u).toEqual({ total_steps: 1 });
    // the normalised view falls back per field to the step sums
    expect(h.normalizedTokenUsage()).toMatchObject({ input: 5, output: 2 });
  });

  it('tool_calls() concatenates every step (all sources, copied context included)', async () => {
    const h = fromData(
      base([
        {
          step_id: 1,
          source: 'agent',
          message: '',
          is_copied_context: true,
          tool_calls: [{ tool_call_id: 'old', function_name: 'ls', arguments: {} }],
        },
        { step_id: 2, source: 'user', message: 'again' },
        {
          step_id: 3,
          source: 'agent',
          message: '',
          tool_calls: [{ tool_call_id: 'new', function_name: 'ls', arguments: {} }],
        },
      ]),
    );
    expect((await h.toolCalls()).map((c) => c.tool_call_id)).toEqual(['old', 'new']);
    expect((await h.toolCalls({ skipCopiedContext: true })).map((c) => c.tool_call_id)).toEqual(['new']);
    expect((await h.copiedContextSteps()).map((s) => s.step_id)).toEqual([1]);
    // normalised view: copied-context steps are not new work
    expect(h.normalizedToolCalls().map((c) => c.id)).toEqual(['new']);
    expect(h.stepCount()).toBe(2);
    expect((await h.steps()).length).toBe(3);
  });

  it('error flags come from the result extra.is_error; duplicate ids pair results in order', () => {
    const h = fromData(
      base([
        {
          step_id: 1,
          source: 'agent',
          message: '',
          tool_calls: [
            { tool_call_id: 'c', function_name: 'run', arguments: { n: 1 } },
            { tool_call_id: 'c', function_name: 'run', arguments: { n: 2 } },
            { tool_call_id: 'd', function_name: 'none', arguments: {} },
          ],
          observation: {
            results: [
              { source_call_id: 'c', content: 'first', extra: { is_error: true } },
              { source_call_id: 'c', content: 'second' },
              { content: 'unrelated system note' },
            ],
          },
        },
      ]),
    );
    expect(h.normalizedToolCalls().map((c) => [c.arguments, c.result, c.isError])).toEqual([
      [{ n: 1 }, 'first', true],
      [{ n: 2 }, 'second', false],
      [{}, null, false],
    ]);
  });

  it('accepts multimodal (v1.6) messages and flattens their text parts', () => {
    const h = fromData({
      schema_version: 'ATIF-v1.6',
      session_id: 's',
      agent: { name: 'a', version: '1' },
      steps: [
        {
          step_id: 1,
          source: 'user',
          message: [
            { type: 'text', text: 'look' },
            { type: 'image', source: { media_type: 'image/png', path: 'images/a.png' } },
          ],
        },
        {
          step_id: 2,
          source: 'agent',
          message: [
            { type: 'text', text: 'a cat' },
            { type: 'text', text: 'on a mat' },
          ],
        },
      ],
    });
    expect(h.finalText()).toBe('a cat\non a mat');
    expect(h.turnCount()).toBe(1);
  });

  it('an empty last agent message means no answer', () => {
    const h = fromData(
      base([
        { step_id: 1, source: 'agent', message: 'earlier' },
        { step_id: 2, source: 'agent', message: '' },
      ]),
    );
    expect(h.finalText()).toBeNull();
  });

  it('loads once and caches the trajectory', async () => {
    const h = fromData(base([{ step_id: 1, source: 'user', message: 'x' }]));
    expect(await h.trace()).toBe(h.traceSync());
  });
});

describe('ATIF schema (required rules, lenient on unknown keys)', () => {
  it('keeps unknown keys', () => {
    const r = parseAtif(
      base([{ step_id: 1, source: 'user', message: 'x', vendor_field: 1 }], { producer: 'me' }),
    );
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.trajectory['producer']).toBe('me');
      expect(r.trajectory.steps[0]?.['vendor_field']).toBe(1);
    }
  });

  it.each<[string, JsonValue, string]>([
    [
      'bare version',
      {
        schema_version: '1.4',
        agent: { name: 'a', version: '1' },
        steps: [{ step_id: 1, source: 'user', message: '' }],
      },
      'schema_version',
    ],
    ['no steps', { schema_version: 'ATIF-v1.7', agent: { name: 'a', version: '1' }, steps: [] }, 'steps'],
    [
      'no agent.version',
      {
        schema_version: 'ATIF-v1.7',
        agent: { name: 'a' },
        steps: [{ step_id: 1, source: 'user', message: '' }],
      },
      'agent.version',
    ],
    ['bad source', base([{ step_id: 1, source: 'tool', message: '' }]), 'steps.0.source'],
    ['no message', base([{ step_id: 1, source: 'user' }]), 'steps.0.message'],
    [
      'string arguments',
      base([
        {
          step_id: 1,
          source: 'agent',
          message: '',
          tool_calls: [{ tool_call_id: 'x', function_name: 'f', arguments: '{}' }],
        },
      ]),
      'steps.0.tool_calls.0.arguments',
    ],
    [
      'observation without results',
      base([{ step_id: 1, source: 'agent', message: '', observation: {} }]),
      'steps.0.observation.results',
    ],
    [
      'session_id missing under v1.5',
      {
        schema_version: 'ATIF-v1.5',
        agent: { name: 'a', version: '1' },
        steps: [{ step_id: 1, source: 'user', message: '' }],
      },
      'session_id',
    ],
  ])('rejects %s', (_label, payload, path) => {
    const r = parseAtif(payload);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('v1.7 makes session_id optional', () => {
    expect(parseAtif(base([{ step_id: 1, source: 'user', message: '' }])).ok).toBe(true);
  });

  it('a handle over an invalid document throws AtifParseError naming the source and field', async () => {
    const h = fromData(base([{ step_id: 1, source: 'tool', message: '' }]));
    await expect(h.trace()).rejects.toBeInstanceOf(AtifParseError);
    await expect(h.trace()).rejects.toThrow(
      /<inline data>: not a valid ATIF trajectory at steps\[0\]\.source/,
    );
  });
});

describe('checkAtifConformance', () => {
  const parse = (payload: JsonValue): AtifTrajectory => {
    const r = parseAtif(payload);
    if (!r.ok) throw new Error('fixture must parse');
    return r.trajectory;
  };

  it('reports every cross-field problem', () => {
    const t = parse({
      schema_version: 'ATIF-v1.7',
      agent: { name: 'a', version: '1' },
      steps: [
        {
          step_id: 1,
          source: 'user',
          message: 'x',
          timestamp: 'yesterday',
          tool_calls: [{ tool_call_id: 'u', function_name: 'f', arguments: {} }],
        },
        {
          step_id: 3,
          source: 'agent',
          message: '',
          llm_call_count: 0,
          metrics: { prompt_tokens: 1 },
          tool_calls: [{ tool_call_id: 'a', function_name: 'f', arguments: {} }],
          observation: {
            results: [
              { source_call_id: 'zz', content: 'x', subagent_trajectory_ref: [{ trajectory_id: 'missing' }] },
            ],
          },
        },
        {
          step_id: 3,
          source: 'agent',
          message: [{ type: 'audio', source: { media_type: 'audio/wav', path: 'a.wav' } }],
        },
      ],
    });
    const codes = checkAtifConformance(t).map((i) => `${i.code}@${i.path.join('.')}`);
    expect(codes).toEqual([
      'invalid_timestamp@steps.0.timestamp',
      'agent_only_field@steps.0.tool_calls',
      'step_id_sequence@steps.1.step_id',
      'llm_call_count_zero@steps.1.metrics',
      'unknown_source_call_id@steps.1.observation.results.0.source_call_id',
      'unresolvable_ref@steps.1.observation.results.0.subagent_trajectory_ref.0.trajectory_id',
      'version_feature@steps.2.message.0',
    ]);
  });

  it('accepts audio under v1.8', () => {
    const t = parse({
      schema_version: 'ATIF-v1.8',
      agent: { name: 'a', version: '1' },
      steps: [
        {
          step_id: 1,
          source: 'user',
          message: [{ type: 'audio', source: { media_type: 'audio/wav', path: 'a.wav', duration_sec: 1.5 } }],
        },
      ],
    });
    expect(checkAtifConformance(t)).toEqual([]);
  });
});
