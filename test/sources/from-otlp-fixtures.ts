import { context, trace, SpanKind, type Tracer } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/**
 * Records one agent trial with the OpenTelemetry JS SDK: an `invoke_agent` root stamped with the
 * conversation id and test case name (as NeMo publishing does), `tools` chat + execute_tool pairs and
 * a final chat. Token usage: chat i has 100+i input and 10+i output tokens.
 */
export function recordTrial(
  tracer: Tracer,
  conversation: string | null,
  testCase: string | null,
  tools: string[],
  t0: number,
): void {
  const stamp = {
    ...(conversation === null ? {} : { 'gen_ai.conversation.id': conversation }),
    ...(testCase === null ? {} : { 'nemo.test_case.name': testCase }),
  };
  const root = tracer.startSpan('invoke_agent a', {
    attributes: { 'gen_ai.operation.name': 'invoke_agent', ...stamp },
    startTime: [t0, 0],
  });
  const ctx = trace.setSpan(context.active(), root);
  let t = 1;
  const chat = (i: number, text: string | null, call: string | null): void => {
    const out =
      call === null
        ? [{ role: 'assistant', parts: [{ type: 'text', content: text }] }]
        : [
            {
              role: 'assistant',
              parts: [{ type: 'tool_call', id: `call_${i}`, name: call, arguments: { i } }],
            },
          ];
    tracer
      .startSpan(
        'chat m',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.usage.input_tokens': 100 + i,
            'gen_ai.usage.output_tokens': 10 + i,
            'gen_ai.output.messages': JSON.stringify(out),
          },
          startTime: [t0, t++ * 1000],
        },
        ctx,
      )
      .end([t0, t++ * 1000]);
  };
  tools.forEach((name, i) => {
    chat(i, null, name);
    tracer
      .startSpan(
        `execute_tool ${name}`,
        {
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': name,
            'gen_ai.tool.call.id': `call_${i}`,
            'gen_ai.tool.call.arguments': JSON.stringify({ i }),
            'gen_ai.tool.call.result': JSON.stringify({ ok: i }),
          },
          startTime: [t0, t++ * 1000],
        },
        ctx,
      )
      .end([t0, t++ * 1000]);
  });
  chat(tools.length, `done ${conversation ?? ''}`, null);
  root.end([t0 + 1, 0]);
}

/** A tracer whose finished spans land in the returned exporter. */
export function sdkTracer(resource: Record<string, string> = { 'service.name': 'agent' }): {
  tracer: Tracer;
  exporter: InMemorySpanExporter;
} {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { tracer: provider.getTracer('test.agent', '1.0'), exporter };
}

/** One binary ExportTraceServiceRequest of `spans`. */
export function protobufRequest(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array);
}

/** The Collector file exporter's framing: a 4-byte big-endian length, then the request. */
export function framed(requests: Buffer[]): Buffer {
  return Buffer.concat(
    requests.flatMap((r) => {
      const head = Buffer.alloc(4);
      head.writeUInt32BE(r.length);
      return [head, r];
    }),
  );
}
