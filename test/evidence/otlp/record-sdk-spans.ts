import { context, trace, SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import type { OtlpAnyValue, OtlpAttributes, OtlpSpan } from '../../../src/evidence/otlp/otlp-types.js';

/**
 * Records a small agent run with the real OpenTelemetry JS SDK: two providers (two resources), three
 * scopes, every attribute value type, events, links, a remote parent, statuses, dropped attributes,
 * long multi-byte message attributes. The spans are the oracle the decoders are checked against.
 */
export function recordSdkSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const agentProvider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': 'agent',
      'service.version': '1.2.3',
      'deployment.id': 7,
    }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const toolProvider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'tools' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    spanLimits: { attributeCountLimit: 3 },
  });
  const agent = agentProvider.getTracer('agent.lib', '0.9.0');
  const llm = agentProvider.getTracer('llm.lib');
  const tools = toolProvider.getTracer('tool.lib', '2.0');
  const long = 'Grüße, 世界! 🚀 '.repeat(120);
  const remote = trace.setSpanContext(context.active(), {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
    isRemote: true,
  });
  const root = agent.startSpan(
    'invoke_agent helper',
    {
      kind: SpanKind.SERVER,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.conversation.id': 'conv-1',
        'int.negative': -42,
        'int.big': 9007199254740991,
        'double.value': 0.125,
        'bool.value': false,
        'empty.string': '',
        strings: ['a', 'b', ''],
        numbers: [1, 2.5, -3],
        bools: [true, false],
      },
      startTime: [1_760_000_000, 123_456_789],
    },
    remote,
  );
  const rootCtx = trace.setSpan(context.active(), root);
  const chat = llm.startSpan(
    'chat gpt-4.1',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.usage.input_tokens': 1200,
        'gen_ai.usage.output_tokens': 34,
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: long }] }]),
      },
      startTime: [1_760_000_000, 200_000_000],
    },
    rootCtx,
  );
  chat.addEvent('gen_ai.choice', { index: 0, 'finish.reason': 'tool_calls' }, [1_760_000_001, 5]);
  chat.end([1_760_000_002, 0]);
  const tool = tools.startSpan(
    'execute_tool get_weather',
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'get_weather',
        a: 1,
        b: 2,
        c: 3,
      },
      links: [{ context: chat.spanContext(), attributes: { 'link.kind': 'caused-by' } }],
      startTime: [1_760_000_002, 500_000_000],
    },
    rootCtx,
  );
  tool.recordException(new Error('boom'), [1_760_000_002, 600_000_000]);
  tool.setStatus({ code: SpanStatusCode.ERROR, message: 'tool failed' });
  tool.end([1_760_000_003, 0]);
  const producer = agent.startSpan(
    'enqueue',
    { kind: SpanKind.PRODUCER, startTime: [1_760_000_003, 1] },
    rootCtx,
  );
  producer.setStatus({ code: SpanStatusCode.OK });
  producer.end([1_760_000_003, 2]);
  const consumer = agent.startSpan(
    'dequeue',
    { kind: SpanKind.CONSUMER, startTime: [1_760_000_003, 3] },
    rootCtx,
  );
  consumer.end([1_760_000_003, 4]);
  root.end([1_760_000_004, 999_999_999]);
  return exporter.getFinishedSpans();
}

/** An SDK attribute value as the OTLP serializers map it (integers → int, other numbers → double). */
export function sdkValue(v: unknown): unknown {
  if (typeof v === 'string') return { type: 'string', value: v };
  if (typeof v === 'boolean') return { type: 'bool', value: v };
  if (typeof v === 'number')
    return Number.isInteger(v) ? { type: 'int', value: BigInt(v) } : { type: 'double', value: v };
  if (Array.isArray(v)) return { type: 'array', values: v.map(sdkValue) };
  throw new Error(`unexpected attribute value ${String(v)}`);
}

/** Decoded attribute value in the same plain shape as `sdkValue`. */
export function plainValue(v: OtlpAnyValue): unknown {
  switch (v.type) {
    case 'string':
      return { type: 'string', value: v.value };
    case 'array':
      return { type: 'array', values: v.values.map(plainValue) };
    case 'kvlist':
      return { type: 'kvlist', values: v.values.map((kv) => ({ key: kv.key, value: plainValue(kv.value) })) };
    case 'empty':
      return { type: 'empty' };
    case 'bytes':
      return { type: 'bytes', value: [...v.value] };
    default:
      return { type: v.type, value: v.value };
  }
}

function sdkAttributes(a: Attributes): Record<string, unknown> {
  return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, sdkValue(v)]));
}

function plainAttributes(a: OtlpAttributes): Record<string, unknown> {
  return Object.fromEntries(a.entries().map((kv) => [kv.key, plainValue(kv.value)]));
}

const nanos = (t: [number, number]): bigint => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);

/** What the SDK recorded, in the decoder's terms (OTLP kind = SDK kind + 1). */
export function expectedSpan(s: ReadableSpan): unknown {
  return {
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId ?? '',
    traceFlags: s.spanContext().traceFlags,
    parentIsRemote: s.parentSpanContext?.isRemote === true,
    name: s.name,
    kind: s.kind + 1,
    start: nanos(s.startTime),
    end: nanos(s.endTime),
    attributes: sdkAttributes(s.attributes),
    droppedAttributesCount: s.droppedAttributesCount,
    events: s.events.map((e) => ({
      name: e.name,
      time: nanos(e.time),
      attributes: sdkAttributes(e.attributes ?? {}),
    })),
    links: s.links.map((l) => ({
      traceId: l.context.traceId,
      spanId: l.context.spanId,
      attributes: sdkAttributes(l.attributes ?? {}),
    })),
    status: { code: s.status.code, message: s.status.message ?? '' },
    resource: sdkAttributes(s.resource.attributes),
    scope: { name: s.instrumentationScope.name, version: s.instrumentationScope.version ?? '' },
  };
}

/** A decoded span in the same shape as `expectedSpan`. */
export function decodedSpan(s: OtlpSpan): unknown {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    traceFlags: s.flags & 0xff,
    parentIsRemote: (s.flags & 0x200) !== 0,
    name: s.name,
    kind: s.kind,
    start: s.startTimeUnixNano,
    end: s.endTimeUnixNano,
    attributes: plainAttributes(s.attributes),
    droppedAttributesCount: s.droppedAttributesCount,
    events: s.events.map((e) => ({
      name: e.name,
      time: e.timeUnixNano,
      attributes: plainAttributes(e.attributes),
    })),
    links: s.links.map((l) => ({
      traceId: l.traceId,
      spanId: l.spanId,
      attributes: plainAttributes(l.attributes),
    })),
    status: { code: s.status.code, message: s.status.message },
    resource: plainAttributes(s.resource.attributes),
    scope: { name: s.scope.name, version: s.scope.version },
  };
}
