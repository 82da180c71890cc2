import { describe, expect, it } from 'vitest';
import { OTLPTraceHandle } from '../../../src/evidence/otlp/otlp-trace-handle.js';
import { otlpJsonToRequest } from '../../../src/evidence/otlp/otlp-json-to-request.js';

const SAMPLES = new URL('../../fixtures/otlp/samples/', import.meta.url);
const sample = (name: string): OTLPTraceHandle => OTLPTraceHandle.fromFile(new URL(name, SAMPLES).pathname);

interface S {
  id: string;
  parent?: string;
  trace?: string;
  name?: string;
  start: number;
  end: number;
  attrs?: Record<string, string | number>;
  error?: boolean;
  events?: { name: string; attrs: Record<string, string> }[];
}

const T1 = '11111111111111111111111111111111';
// span names of up to 8 ASCII characters as span ids
const hex16 = (id: string): string => Buffer.from(id).toString('hex').padStart(16, '0');
const kv = (attrs: Record<string, string | number>): unknown[] =>
  Object.entries(attrs).map(([key, v]) => ({
    key,
    value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
  }));

/** A handle over one OTLP/JSON request built from compact span specs (times in ms). */
function handle(spans: S[], logs: unknown[] = []): OTLPTraceHandle {
  const doc = {
    resourceSpans: [
      {
        resource: { attributes: kv({ 'service.name': 'test' }) },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: spans.map((s) => ({
              traceId: s.trace ?? T1,
              spanId: hex16(s.id),
              parentSpanId: s.parent === undefined ? '' : hex16(s.parent),
              name: s.name ?? s.id,
              startTimeUnixNano: String(BigInt(s.start) * 1_000_000n),
              endTimeUnixNano: String(BigInt(s.end) * 1_000_000n),
              attributes: kv(s.attrs ?? {}),
              events: (s.events ?? []).map((e) => ({ name: e.name, attributes: kv(e.attrs) })),
              status: s.error === true ? { code: 2 } : {},
            })),
          },
        ],
      },
    ],
    resourceLogs: [{ scopeLogs: [{ logRecords: logs }] }],
  };
  return OTLPTraceHandle.fromRequests([otlpJsonToRequest(doc)]);
}

const chat = (inT: number, outT: number, extra: Record<string, string | number> = {}) => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.usage.input_tokens': inT,
  'gen_ai.usage.output_tokens': outT,
  ...extra,
});
const tool = (name: string, extra: Record<string, string | number> = {}) => ({
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': name,
  ...extra,
});
const messages = (role: string, parts: unknown[]): string => JSON.stringify([{ role, parts }]);

describe('OTLPTraceHandle on real samples (hand-checked)', () => {
  it('Google ADK S2: two tool calls, usage duplicated on call_llm/generate_content counted once', () => {
    const h = sample('agentevals__adk_py_v2_default_S2.json');
    expect(h.toolCalls()).toEqual([
      {
        id: 'adk-aa568543-9a7c-4061-8370-87805dcc11c8',
        name: 'get_weather',
        arguments: { city: 'Paris' },
        result: { city: 'Paris', forecast: 'sunny', temp_c: 21 },
        isError: false,
        origin: { kind: 'otlp-span', spanId: 'b527177ac67f8640' },
      },
      {
        id: 'adk-142c3f12-db1f-4b1b-b71f-a9a036a0135a',
        name: 'get_time',
        arguments: { city: 'Paris' },
        result: { city: 'Paris', time: '14:05' },
        isError: false,
        origin: { kind: 'otlp-span', spanId: '65b1486846d88d42' },
      },
    ]);
    // generate_content spans: 20+40+60 in, 5+5+14 out; the call_llm wrappers repeat them
    const u = h.tokenUsage();
    expect([u.input, u.output, u.llmCalls, u.vocabulary]).toEqual([120, 24, 3, ['gen_ai']]);
    expect(u.countedSpanIds.sort()).toEqual(['44bdeaedf0aeeb73', '979852321aeffedf', 'dc9a125b2f952a67']);
    expect(h.finalText()).toBe('It is sunny and 21C in Paris; local time is 14:05.');
    expect([h.stepCount(), h.turnCount()]).toEqual([10, 1]);
    expect(h.resourceSpans()).toHaveLength(1);
    expect(h.logRecords()).toHaveLength(15);
  });

  it('kagent via Tempo: one MCP tool call, usage three levels deep (call_llm > generate_content > openai.chat)', () => {
    const h = sample('agentevals__kagent_tempo_export_with_batches.json');
    const calls = h.toolCalls();
    expect(calls.map((c) => [c.name, c.id, c.arguments, c.isError])).toEqual([
      ['helm_list_releases', 'call_w0eKlvnaE7S9GQJeSSs0gn05', {}, false],
    ]);
    expect((calls[0]?.result as { isError: boolean }).isError).toBe(false);
    const u = h.tokenUsage();
    // innermost openai.chat spans: 2256 + 2392 in, 13 + 116 out
    expect([u.input, u.output, u.cached, u.llmCalls]).toEqual([4648, 129, 0, 2]);
    expect(h.finalText()?.startsWith('There are two Helm releases currently deployed:')).toBe(true);
    expect(h.stepCount()).toBe(86);
  });

  it('opentelemetry-proto example: no GenAI content at all', () => {
    const h = sample('opentelemetry-proto__examples_trace.json');
    expect(h.toolCalls()).toEqual([]);
    expect(h.normalizedTokenUsage()).toEqual({
      input: null,
      output: null,
      cached: null,
      costUsd: null,
      vocabulary: [],
    });
    expect(h.finalText()).toBeNull();
  });
});

describe('OTLPTraceHandle rules', () => {
  it('an agent span aggregating its model calls is not added again', () => {
    const h = handle([
      { id: 'a', start: 0, end: 100, attrs: { ...chat(120, 20), 'gen_ai.operation.name': 'invoke_agent' } },
      { id: 'c1', parent: 'a', start: 1, end: 40, attrs: chat(40, 9) },
      { id: 'c2', parent: 'a', start: 50, end: 90, attrs: chat(80, 11) },
    ]);
    expect([h.tokenUsage().input, h.tokenUsage().output]).toEqual([120, 20]);
    expect(h.tokenUsage().countedSpanIds).toEqual([hex16('c1'), hex16('c2')]);
  });

  it('records every vocabulary the counted numbers used', () => {
    const h = handle([
      { id: 'r', start: 0, end: 100 },
      {
        id: 'd',
        parent: 'r',
        start: 1,
        end: 2,
        attrs: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.usage.prompt_tokens': 70,
          'gen_ai.usage.completion_tokens': 14,
        },
      },
      {
        id: 'o',
        parent: 'r',
        start: 3,
        end: 4,
        attrs: {
          'openinference.span.kind': 'LLM',
          'llm.token_count.prompt': 5,
          'llm.token_count.completion': 2,
          'llm.token_count.prompt_details.cache_read': 3,
        },
      },
    ]);
    const u = h.tokenUsage();
    expect([u.input, u.output, u.cached, u.llmCalls]).toEqual([75, 16, 3, 2]);
    expect(u.vocabulary.sort()).toEqual(['gen_ai-deprecated', 'openinference']);
  });

  it('an MCP client span around its server span is one call; an agent used as a tool keeps its inner calls', () => {
    const h = handle([
      { id: 'a', start: 0, end: 100, attrs: { 'gen_ai.operation.name': 'invoke_agent' } },
      {
        id: 'client',
        parent: 'a',
        start: 10,
        end: 20,
        attrs: tool('get-weather', { 'gen_ai.tool.call.arguments': '{"q":1}' }),
      },
      {
        id: 'server',
        parent: 'client',
        start: 11,
        end: 19,
        attrs: tool('get-weather', { 'gen_ai.tool.call.arguments': '{"q":1}' }),
      },
      { id: 'delegate', parent: 'a', start: 30, end: 60, attrs: tool('research_agent') },
      {
        id: 'sub',
        parent: 'delegate',
        start: 31,
        end: 59,
        attrs: { 'gen_ai.operation.name': 'invoke_agent' },
      },
      {
        id: 'inner',
        parent: 'sub',
        start: 40,
        end: 50,
        attrs: tool('search', { 'error.type': 'TimeoutError' }),
      },
      { id: 'merged', parent: 'a', start: 61, end: 62, attrs: tool('(merged tools)') },
    ]);
    expect(h.toolCalls().map((c) => [c.name, c.origin, c.isError])).toEqual([
      ['get-weather', { kind: 'otlp-span', spanId: hex16('server') }, false],
      ['research_agent', { kind: 'otlp-span', spanId: hex16('delegate') }, false],
      ['search', { kind: 'otlp-span', spanId: hex16('inner') }, true],
    ]);
  });

  it('joins missing arguments and results by call id from the model messages; status ERROR is an error', () => {
    const h = handle([
      { id: 'r', start: 0, end: 100 },
      {
        id: 'c1',
        parent: 'r',
        start: 1,
        end: 10,
        attrs: chat(1, 1, {
          'gen_ai.output.messages': messages('assistant', [
            { type: 'tool_call', id: 'call_1', name: 'lookup', arguments: { k: 'v' } },
          ]),
        }),
      },
      {
        id: 't',
        parent: 'r',
        start: 11,
        end: 12,
        attrs: tool('lookup', { 'gen_ai.tool.call.id': 'call_1' }),
        error: true,
      },
      {
        id: 'c2',
        parent: 'r',
        start: 13,
        end: 20,
        attrs: chat(1, 1, {
          'gen_ai.input.messages': messages('tool', [
            { type: 'tool_call_response', id: 'call_1', response: '{"ok":false}' },
          ]),
        }),
      },
    ]);
    expect(h.toolCalls().map((c) => [c.id, c.arguments, c.result, c.isError])).toEqual([
      ['call_1', { k: 'v' }, { ok: false }, true],
    ]);
  });

  it('without tool spans, uses the tool calls the models asked for (each id once)', () => {
    const out = (id: string) =>
      messages('assistant', [{ type: 'tool_call', id, name: 'get_weather', arguments: '{"city":"Rome"}' }]);
    const h = handle([
      {
        id: 'w',
        start: 0,
        end: 10,
        attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': out('c1') },
      },
      { id: 'p', parent: 'w', start: 1, end: 9, attrs: chat(3, 4, { 'gen_ai.output.messages': out('c1') }) },
      {
        id: 'q',
        start: 11,
        end: 20,
        attrs: chat(5, 6, {
          'gen_ai.input.messages': messages('tool', [
            { type: 'tool_call_response', id: 'c1', response: { t: 17 } },
          ]),
          'gen_ai.output.messages': messages('assistant', [{ type: 'text', content: 'It is 17C.' }]),
        }),
      },
    ]);
    expect(h.toolCalls().map((c) => [c.id, c.name, c.arguments, c.result])).toEqual([
      ['c1', 'get_weather', { city: 'Rome' }, { t: 17 }],
    ]);
    expect(h.finalText()).toBe('It is 17C.');
    expect([h.tokenUsage().input, h.tokenUsage().llmCalls]).toEqual([8, 2]);
  });

  it('final text: roots first, latest end first; placeholders are not text', () => {
    const answer = (t: string) => messages('assistant', [{ type: 'text', content: t }]);
    const h = handle([
      {
        id: 'a1',
        trace: T1,
        start: 0,
        end: 50,
        attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.output.messages': answer('first') },
      },
      {
        id: 'a2',
        trace: '2'.repeat(32),
        start: 60,
        end: 90,
        attrs: { 'gen_ai.operation.name': 'invoke_agent', 'output.value': '<elided>' },
      },
      {
        id: 'c',
        trace: '2'.repeat(32),
        parent: 'a2',
        start: 61,
        end: 89,
        attrs: chat(1, 1, { 'gen_ai.output.messages': answer('second') }),
      },
    ]);
    // a2 is the latest root but has only a placeholder; a1 is a root with text
    expect(h.finalText()).toBe('first');
    expect(h.turnCount()).toBe(2);
  });

  it('a log record without span id goes to the only model call of its trace, else nowhere', () => {
    const choice = {
      traceId: T1,
      attributes: kv({ 'event.name': 'gen_ai.choice' }),
      body: {
        kvlistValue: {
          values: [
            {
              key: 'message',
              value: { kvlistValue: { values: [{ key: 'content', value: { stringValue: 'Hi!' } }] } },
            },
          ],
        },
      },
    };
    const one = handle(
      [
        { id: 'r', start: 0, end: 10 },
        { id: 'c', parent: 'r', start: 1, end: 9, attrs: chat(1, 1) },
      ],
      [choice],
    );
    expect(one.finalText()).toBe('Hi!');
    const two = handle(
      [
        { id: 'r', start: 0, end: 10 },
        { id: 'c', parent: 'r', start: 1, end: 4, attrs: chat(1, 1) },
        { id: 'd', parent: 'r', start: 5, end: 9, attrs: chat(1, 1) },
      ],
      [choice],
    );
    expect(two.finalText()).toBeNull();
  });

  it('regroups spans under their resource and scope for resourceSpans()', () => {
    const h = sample('agentevals__kagent_tempo_export_with_batches.json');
    const regrouped = OTLPTraceHandle.fromSpans(h.spans());
    const count = (rs: ReturnType<OTLPTraceHandle['resourceSpans']>): number =>
      rs.reduce((n, r) => n + r.scopeSpans.reduce((m, s) => m + s.spans.length, 0), 0);
    expect(count(regrouped.resourceSpans())).toBe(86);
    for (const rs of regrouped.resourceSpans()) {
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans) expect([s.resource, s.scope]).toEqual([rs.resource, ss.scope]);
    }
  });
});
