/**
 * The OTLP/protobuf export requests of the serve benches: real OTel SDK output
 * (ProtobufTraceSerializer) of one agent trial — an invoke_agent root, 4 chat spans and 4 tool spans
 * with 500–2000-byte message attributes — made unique per trial by patching the trace id,
 * conversation id and task name bytes of one template in place (same lengths, so the protobuf
 * lengths stay valid).
 */
import { context, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

const SENTINEL_TRACE = 'abcdef0123456789abcdef0123456789';
const SENTINEL_CONV = 'conv-SENTINEL-0000000000';
const SENTINEL_TASK = 'bench-task-SENTINEL000';

function templatePayload(): { bytes: Buffer; spans: number } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'bench-agent' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    idGenerator: {
      generateTraceId: () => SENTINEL_TRACE,
      generateSpanId: (() => {
        let n = 0;
        return () => (++n).toString(16).padStart(16, '0');
      })(),
    },
  });
  const tracer = provider.getTracer('bench');
  const keys = { 'gen_ai.conversation.id': SENTINEL_CONV, 'nemo.test_case.name': SENTINEL_TASK };
  const text = (n: number): string => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);
  const root = tracer.startSpan('invoke_agent bench', {
    attributes: { ...keys, 'gen_ai.operation.name': 'invoke_agent' },
  });
  const ctx = trace.setSpan(context.active(), root);
  for (let i = 0; i < 4; i++) {
    const chat = tracer.startSpan(
      'chat m',
      {
        attributes: {
          ...keys,
          'gen_ai.operation.name': 'chat',
          'gen_ai.usage.input_tokens': 500 + i,
          'gen_ai.usage.output_tokens': 50 + i,
          'gen_ai.input.messages': JSON.stringify([
            { role: 'user', parts: [{ type: 'text', content: text(500 + 400 * i) }] },
          ]),
          'gen_ai.output.messages': JSON.stringify([
            { role: 'assistant', parts: [{ type: 'text', content: text(600) }] },
          ]),
        },
      },
      ctx,
    );
    chat.end();
    const tool = tracer.startSpan(
      `execute_tool t${i % 2}`,
      {
        attributes: {
          ...keys,
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': `t${i % 2}`,
          'gen_ai.tool.call.arguments': JSON.stringify({ q: text(300) }),
          'gen_ai.tool.call.result': JSON.stringify({ r: text(900) }),
        },
      },
      ctx,
    );
    tool.end();
  }
  root.end();
  const spans = exporter.getFinishedSpans();
  return { bytes: Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!), spans: spans.length };
}

function offsetsOf(haystack: Buffer, needle: Buffer): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) found.push(i);
  return found;
}

/**
 * The template's size and span count, and `payload(n)`: trial `n`'s export request (trace id `n`,
 * conversation `conv-<n>`, task `n / repeats` — or task 0 for every trial when `repeats` is 0).
 */
export function agentTrialPayloads(repeats: number): {
  template: { bytes: Buffer; spans: number };
  payload: (n: number) => Buffer;
} {
  const template = templatePayload();
  const traceOffsets = offsetsOf(template.bytes, Buffer.from(SENTINEL_TRACE, 'hex'));
  const convOffsets = offsetsOf(template.bytes, Buffer.from(SENTINEL_CONV));
  const taskOffsets = offsetsOf(template.bytes, Buffer.from(SENTINEL_TASK));
  const payload = (n: number): Buffer => {
    const copy = Buffer.from(template.bytes);
    const id = Buffer.from(n.toString(16).padStart(32, '0'), 'hex');
    for (const o of traceOffsets) id.copy(copy, o);
    const conv = Buffer.from(`conv-${n.toString().padStart(19, '0')}`);
    for (const o of convOffsets) conv.copy(copy, o);
    const task = Buffer.from(
      `bench-task-${(repeats === 0 ? 0 : Math.floor(n / repeats)).toString().padStart(11, '0')}`,
    );
    for (const o of taskOffsets) task.copy(copy, o);
    return copy;
  };
  return { template, payload };
}
